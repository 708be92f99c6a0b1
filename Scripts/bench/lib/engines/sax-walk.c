/* Visits every node of each file with libxml2's SAX2 push parser and does nothing else:
 * the ceiling for a streaming SAX2 feed parser on this library. Prints bytes and seconds. */
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "read-file.h"

static unsigned long elements, textBytes;

static void onStart(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri, int nbNs,
                    const xmlChar **ns, int nbAttr, int nbDefaulted, const xmlChar **attrs) {
    elements++;
}
static void onEnd(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri) {}
static void onText(void *ctx, const xmlChar *ch, int len) { textBytes += (unsigned long)len; }

int main(int argc, char **argv) {
    xmlInitParser();
    for (int i = 1; i < argc; i++) {
        long size; char *data = readFile(argv[i], &size);
        xmlSAXHandler sax = {0};
        sax.initialized = XML_SAX2_MAGIC;
        sax.startElementNs = onStart; sax.endElementNs = onEnd; sax.characters = onText; sax.cdataBlock = onText;
        struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
        xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, argv[i]);
        xmlCtxtUseOptions(ctxt, XML_PARSE_RECOVER | XML_PARSE_NONET);
        for (long offset = 0; offset < size; offset += 65536) {
            long length = size - offset < 65536 ? size - offset : 65536;
            xmlParseChunk(ctxt, data + offset, (int)length, offset + length >= size);
        }
        xmlFreeParserCtxt(ctxt);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("%s %ld %.6f\n", argv[i], size, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
        free(data);
    }
    return elements == 0 && textBytes == 0;
}
