/* Shared by the walk benchmarks: a whole file in memory, as a feed is after a fetch. */
#ifndef FEEDMILL_READ_FILE_H
#define FEEDMILL_READ_FILE_H
#include <stdio.h>
#include <stdlib.h>

static char *readFile(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END); *size = ftell(file); fseek(file, 0, SEEK_SET);
    char *buffer = malloc(*size);
    if (fread(buffer, 1, *size, file) != (size_t)*size) { perror(path); exit(1); }
    fclose(file);
    return buffer;
}
#endif
