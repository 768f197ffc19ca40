#ifndef CWEBSOCKETS_SHIM_H
#define CWEBSOCKETS_SHIM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libwebsockets.h>

/*
 * A thin layer over libwebsockets for one client connection per context.
 *
 * Being static inline, these helpers are compiled into the importing Swift module; no separate C target is needed.
 * Everything here except cws_wake runs on the connection's service thread, as libwebsockets requires.
 */

/* The callback every event of the connection goes to (libwebsockets' lws_callback_function). */
typedef int (*cws_callback)(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);

/* What a connection needs: where to connect, how, and who to tell. */
struct cws_options {
    /* The host name or IP address to connect to (IPv6 without brackets). */
    const char *address;
    int port;
    /* The request target: path and query. */
    const char *path;
    /* The Host header's value. */
    const char *host;
    /* The Origin header's value, or NULL for none. */
    const char *origin;
    /* Non-zero: TLS (wss), with the server certificate and host name checked. */
    int use_tls;
    /* The CA bundle used to check server certificates; NULL keeps the OS default paths. */
    const char *ca_file;
    /* Seconds without a sign of life before a ping is sent, and before the connection is dropped; 0 disables. */
    uint16_t ping_after_seconds;
    uint16_t hang_up_after_seconds;
    /* Seconds allowed for the TCP connect, TLS and upgrade handshakes. */
    unsigned int connect_timeout_seconds;
    /* The largest frame payload received in one callback. */
    size_t receive_buffer_size;
    /* Handed back by lws_context_user(); the Swift connection object. */
    void *user;
    cws_callback callback;
};

/* One client: its context, the protocol table and idle policy the context points at, and the connection. */
struct cws_client {
    struct lws_context *context;
    struct lws *wsi;
    /* Non-zero when the connection failed before lws_client_connect_via_info returned (e.g. the host name did not
       resolve); lws may then report no callback at all. */
    int connect_failed;
    struct lws_protocols protocols[2];
    lws_retry_bo_t idle_policy;
};

/* Silences libwebsockets' own logging (it prints to standard error by default); errors reach the caller as events. */
static inline void
cws_quiet_logs(void)
{
    lws_set_log_level(0, NULL);
}

/* Creates the context and starts connecting; NULL when the context cannot be created. The connection's outcome
   arrives as callbacks: LWS_CALLBACK_CLIENT_ESTABLISHED, or LWS_CALLBACK_CLIENT_CONNECTION_ERROR. */
static inline struct cws_client *
cws_client_create(const struct cws_options *options)
{
    struct cws_client *client = calloc(1, sizeof(struct cws_client));
    if (client == NULL) return NULL;
    client->protocols[0].name = "dataconnect";
    client->protocols[0].callback = options->callback;
    client->protocols[0].rx_buffer_size = options->receive_buffer_size;
    client->idle_policy.secs_since_valid_ping = options->ping_after_seconds;
    client->idle_policy.secs_since_valid_hangup = options->hang_up_after_seconds;

    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = CONTEXT_PORT_NO_LISTEN;
    info.protocols = client->protocols;
    info.user = options->user;
    info.options = options->use_tls ? LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT : 0;
    info.client_ssl_ca_filepath = options->ca_file;
    info.timeout_secs = options->connect_timeout_seconds;
    info.connect_timeout_secs = options->connect_timeout_seconds;
    /* A handful of descriptors: the socket and the cancel pipe. Keeps lws from sizing its tables by the ulimit. */
    info.fd_limit_per_thread = 16;
    if (options->ping_after_seconds > 0) info.retry_and_idle_policy = &client->idle_policy;
    client->context = lws_create_context(&info);
    if (client->context == NULL) {
        free(client);
        return NULL;
    }

    struct lws_client_connect_info connect;
    memset(&connect, 0, sizeof connect);
    connect.context = client->context;
    connect.address = options->address;
    connect.port = options->port;
    connect.path = options->path;
    connect.host = options->host;
    connect.origin = options->origin;
    connect.ssl_connection = options->use_tls ? LCCSCF_USE_SSL : 0;
    connect.protocol = NULL;
    connect.local_protocol_name = client->protocols[0].name;
    connect.pwsi = &client->wsi;
    if (options->ping_after_seconds > 0) connect.retry_and_idle_policy = &client->idle_policy;
    client->connect_failed = lws_client_connect_via_info(&connect) == NULL;
    return client;
}

/* Runs the event loop once: waits for socket activity, a timer or cws_wake, and dispatches callbacks. */
static inline int
cws_service(struct cws_client *client)
{
    return lws_service(client->context, 0);
}

/* Wakes the service thread (LWS_CALLBACK_EVENT_WAIT_CANCELLED); the one call safe from any thread. */
static inline void
cws_wake(struct cws_client *client)
{
    lws_cancel_service(client->context);
}

/* Destroys the context (closing the connection if still open) and frees the client. */
static inline void
cws_client_destroy(struct cws_client *client)
{
    lws_context_destroy(client->context);
    free(client);
}

/* Sends one whole message; returns 0, or -1 when the connection failed. */
static inline int
cws_send(struct lws *wsi, const uint8_t *bytes, size_t length, int binary)
{
    unsigned char *buffer = malloc(LWS_PRE + length + 1);
    if (buffer == NULL) return -1;
    if (length > 0) memcpy(buffer + LWS_PRE, bytes, length);
    int written = lws_write(wsi, buffer + LWS_PRE, length, binary ? LWS_WRITE_BINARY : LWS_WRITE_TEXT);
    free(buffer);
    return written < (int) length ? -1 : 0;
}

/* Sets the code and reason of the close frame sent when the callback then returns -1. */
static inline void
cws_set_close_reason(struct lws *wsi, uint16_t code, const uint8_t *reason, size_t length)
{
    lws_close_reason(wsi, (enum lws_close_status) code, (unsigned char *) reason, length);
}

/* Drops a connection that is not yet established, at once. */
static inline void
cws_abort(struct lws *wsi)
{
    lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
}

/* What lws tells about the frame being received. */
static inline int cws_is_first_fragment(struct lws *wsi) { return lws_is_first_fragment(wsi); }
static inline int cws_is_final_fragment(struct lws *wsi) { return lws_is_final_fragment(wsi); }
static inline int cws_frame_is_binary(struct lws *wsi) { return lws_frame_is_binary(wsi); }
static inline size_t cws_remaining_payload(struct lws *wsi) { return lws_remaining_packet_payload(wsi); }

/* The user pointer given in cws_options, from any callback's wsi. */
static inline void *
cws_user(struct lws *wsi)
{
    if (wsi == NULL) return NULL;
    struct lws_context *context = lws_get_context(wsi);
    return context == NULL ? NULL : lws_context_user(context);
}

/* The HTTP status of the upgrade response, or 0 when none was received. */
static inline unsigned int
cws_http_status(struct lws *wsi)
{
    return wsi == NULL ? 0 : lws_http_client_http_response(wsi);
}

#endif
