#ifndef FEEDMILL_CLIBXML2_SHIM_H
#define FEEDMILL_CLIBXML2_SHIM_H

/*
 * libxml2's encoding.h includes the system ICU headers, whose UErrorCode clashes
 * with the ICU that Foundation bundles ("'UErrorCode' has different definitions in
 * different modules"). Feedmill transcodes to UTF-8 itself, so ICU is not needed:
 * read xmlversion.h first and switch the ICU include off.
 */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/entities.h>

/* xmlFree is a global function pointer, which Swift 6 rejects as not concurrency-safe. */
static inline void feedmill_xmlFree(void *pointer) { xmlFree(pointer); }

/* The line the parser has reached (for positions in errors). */
static inline int feedmill_xmlInputLine(xmlParserCtxtPtr ctxt) {
    return (ctxt && ctxt->input) ? ctxt->input->line : 0;
}

/* Entity references are replaced by their text; see XMLFeedParser for why this is safe here. */
static inline void feedmill_xmlSetReplaceEntities(xmlParserCtxtPtr ctxt, int on) {
    if (ctxt) ctxt->replaceEntities = on;
}

#endif
