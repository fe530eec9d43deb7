#include "CHealthVersion.h"

#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>

/* Written by scripts/stamp-commit (`#define HSAX_BUILD_COMMIT "…"`); absent in a clone. */
#if defined(__has_include)
#if __has_include("build_commit.h")
#include "build_commit.h"
#endif
#endif

const char *hsax_libxml2_version(void) {
    static char text[32];
    /* xmlParserVersion is "MMmmpp" without dots, e.g. "20914" or "21014". */
    long v = strtol(xmlParserVersion, NULL, 10);
    snprintf(text, sizeof text, "%ld.%ld.%ld", v / 10000, v / 100 % 100, v % 100);
    return text;
}

const char *hsax_build_commit(void) {
#ifdef HSAX_BUILD_COMMIT
    return HSAX_BUILD_COMMIT;
#else
    return 0;
#endif
}
