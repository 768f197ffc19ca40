#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

/*
 * Fixed-argument wrappers around OpenSSL's function-like macros, which Swift does not import. Being static inline,
 * they are compiled into the importing Swift module; no separate C target is needed.
 */

/* A client context: TLS 1.2 or later, peers verified against the system's trust store (the OpenSSL default paths,
   on Debian /etc/ssl/certs from ca-certificates), a close without close_notify read as the end of the stream.
   Returns NULL on failure. */
static inline SSL_CTX *
copenssl_client_context(void)
{
    SSL_CTX *context = SSL_CTX_new(TLS_client_method());
    if (context == NULL) return NULL;
    if (SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION) != 1 || SSL_CTX_set_default_verify_paths(context) != 1) {
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, NULL);
    SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_COMPRESSION);
    SSL_CTX_set_mode(context, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
    return context;
}

/* Prepares a connection to check the peer's certificate names `host` (a DNS name, or an IP address checked against
   the certificate's IP addresses) and, for a DNS name, to send it as SNI. Returns 1 on success. */
static inline int
copenssl_expect_host(SSL *ssl, const char *host)
{
    unsigned char address[16];
    if (inet_pton(AF_INET, host, address) == 1 || inet_pton(AF_INET6, host, address) == 1) {
        return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1 ? 1 : 0;
    }
    if (SSL_set1_host(ssl, host) != 1) return 0;
    return SSL_set_tlsext_host_name(ssl, host) == 1 ? 1 : 0;
}

/*
 * A BIO over a non-blocking socket that sends with MSG_NOSIGNAL: OpenSSL's own socket BIO writes with write(2), which
 * raises SIGPIPE, ending the process, when the peer has closed the connection. The descriptor is the BIO's data; the
 * BIO never closes it.
 */

static inline int
copenssl_socket_write(BIO *bio, const char *data, int length)
{
    int fd = (int) (intptr_t) BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    ssize_t sent = send(fd, data, (size_t) length, MSG_NOSIGNAL);
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_write(bio);
    return (int) sent;
}

static inline int
copenssl_socket_read(BIO *bio, char *data, int length)
{
    int fd = (int) (intptr_t) BIO_get_data(bio);
    BIO_clear_retry_flags(bio);
    ssize_t got = recv(fd, data, (size_t) length, 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) BIO_set_retry_read(bio);
    return (int) got;
}

static inline long
copenssl_socket_ctrl(BIO *bio, int command, long number, void *pointer)
{
    (void) bio;
    (void) number;
    (void) pointer;
    return command == BIO_CTRL_FLUSH ? 1 : 0;
}

static inline int
copenssl_socket_create(BIO *bio)
{
    BIO_set_init(bio, 1);
    return 1;
}

/* The method of those BIOs; NULL on failure. Free it with BIO_meth_free once no BIO of it is left. */
static inline BIO_METHOD *
copenssl_socket_method(void)
{
    BIO_METHOD *method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "outbound socket");
    if (method == NULL) return NULL;
    if (BIO_meth_set_write(method, copenssl_socket_write) != 1 || BIO_meth_set_read(method, copenssl_socket_read) != 1
        || BIO_meth_set_ctrl(method, copenssl_socket_ctrl) != 1
        || BIO_meth_set_create(method, copenssl_socket_create) != 1) {
        BIO_meth_free(method);
        return NULL;
    }
    return method;
}

/* Makes the connection read and write the socket through a BIO of `method`; returns 1 on success. */
static inline int
copenssl_attach_socket(SSL *ssl, BIO_METHOD *method, int fd)
{
    BIO *bio = BIO_new(method);
    if (bio == NULL) return 0;
    BIO_set_data(bio, (void *) (intptr_t) fd);
    SSL_set_bio(ssl, bio, bio);
    return 1;
}

#endif
