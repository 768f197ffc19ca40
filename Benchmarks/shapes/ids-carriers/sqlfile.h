/* The statement file both programs run: read whole into a static buffer (statements here are a few kilobytes). */
#ifndef IDS_CARRIERS_SQLFILE_H
#define IDS_CARRIERS_SQLFILE_H
#include <stdio.h>

static char *readFile(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    static char text[1 << 16];
    size_t count = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[count] = 0;
    return text;
}
#endif
