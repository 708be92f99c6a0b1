/* Visits every node of each file with libxml2's xmlTextReader and reads each text value:
 * the ceiling for a streaming reader-based feed parser on this library. Prints bytes and seconds. */
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "read-file.h"

int main(int argc, char **argv) {
    unsigned long nodes = 0, textBytes = 0;
    xmlInitParser();
    for (int i = 1; i < argc; i++) {
        long size; char *data = readFile(argv[i], &size);
        struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
        xmlTextReaderPtr reader = xmlReaderForMemory(data, (int)size, argv[i], NULL, XML_PARSE_RECOVER | XML_PARSE_NONET);
        while (xmlTextReaderRead(reader) == 1) {
            nodes++;
            int type = xmlTextReaderNodeType(reader);
            if (type == XML_READER_TYPE_TEXT || type == XML_READER_TYPE_CDATA) {
                const xmlChar *value = xmlTextReaderConstValue(reader);
                if (value) textBytes += (unsigned long)xmlStrlen(value);
            }
        }
        xmlFreeTextReader(reader);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("%s %ld %.6f\n", argv[i], size, (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
        free(data);
    }
    return nodes == 0 && textBytes == 0;
}
