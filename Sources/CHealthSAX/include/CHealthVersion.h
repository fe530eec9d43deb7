#ifndef CHEALTHVERSION_H
#define CHEALTHVERSION_H

/* The libxml2 in use, from its run-time `xmlParserVersion` ("21014" printed as "2.10.14"), in a
   static buffer (call once; not thread-safe the first time). */
const char *hsax_libxml2_version(void);

/* The commit the binary was built from, as scripts/stamp-commit wrote it into
   Sources/CHealthSAX/build_commit.h (git-ignored), or NULL when that file was absent at build
   time (a plain `swift build` from a clone). */
const char *hsax_build_commit(void);

#endif
