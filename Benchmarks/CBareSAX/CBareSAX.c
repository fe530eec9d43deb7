// CBareSAX: the baseline pass. See include/CBareSAX.h. libxml2 is included here only.
#include "CBareSAX.h"

#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlversion.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int64_t elements;
    int has_error;
    int32_t error_line;
    int32_t error_column;
    char error_message[256];
} bare_state;

static void bare_start(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                       int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                       const xmlChar **attributes) {
    (void)localname; (void)prefix; (void)uri; (void)nb_namespaces; (void)namespaces;
    (void)nb_attributes; (void)nb_defaulted; (void)attributes;
    ((bare_state *)ctx)->elements++;
}

/* Keeps the first error or fatal error; warnings are ignored, as the reader does. */
static void bare_error(void *ctx, xmlErrorPtr error) {
    bare_state *s = (bare_state *)ctx;
    if (s == NULL || error == NULL || s->has_error) return;
    if (error->level != XML_ERR_FATAL && error->level != XML_ERR_ERROR) return;
    s->has_error = 1;
    s->error_line = error->line;
    s->error_column = error->int2;
    const char *m = error->message ? error->message : "unknown libxml2 error";
    size_t n = strlen(m);
    while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' ')) n--;
    if (n >= sizeof s->error_message) n = sizeof s->error_message - 1;
    memcpy(s->error_message, m, n);
    s->error_message[n] = 0;
}

static int32_t fail(cbaresax_result *r, int32_t code, const char *what, const char *path) {
    r->error = code;
    snprintf(r->error_message, sizeof r->error_message, "%s%s%s", what, path ? ": " : "", path ? path : "");
    return code;
}

/* read(2) until `cap` bytes or the end of the file; returns bytes read or -1. */
static ssize_t read_full(int fd, char *buffer, size_t cap) {
    size_t got = 0;
    while (got < cap) {
        ssize_t n = read(fd, buffer + got, cap - got);
        if (n == 0) break;
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        got += (size_t)n;
    }
    return (ssize_t)got;
}

int32_t cbaresax_count_file(const char *path, size_t chunk_size, cbaresax_result *result) {
    memset(result, 0, sizeof *result);
    if (chunk_size == 0) chunk_size = CBARESAX_DEFAULT_CHUNK_SIZE;
    if (chunk_size > (size_t)INT32_MAX) chunk_size = (size_t)INT32_MAX;

    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return fail(result, 1, strerror(errno), path);
    char *buffer = malloc(chunk_size);
    if (buffer == NULL) {
        close(fd);
        return fail(result, 3, "out of memory", NULL);
    }

    bare_state state;
    memset(&state, 0, sizeof state);
    xmlSAXHandler sax;
    memset(&sax, 0, sizeof sax);
    sax.initialized = XML_SAX2_MAGIC;
    sax.startElementNs = bare_start;
    sax.serror = bare_error;

    xmlInitParser();
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&sax, &state, NULL, 0, NULL);
    if (ctxt == NULL) {
        free(buffer);
        close(fd);
        return fail(result, 3, "out of memory", NULL);
    }
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);

    int32_t code = 0;
    int rc = 0;
    for (;;) {
        ssize_t n = read_full(fd, buffer, chunk_size);
        if (n < 0) {
            code = fail(result, 1, strerror(errno), path);
            break;
        }
        result->bytes += n;
        rc = xmlParseChunk(ctxt, buffer, (int)n, n == 0);
        if (rc != 0 || state.has_error || n == 0) break;
    }
    if (code == 0 && (rc != 0 || state.has_error)) {
        result->error = code = 2;
        if (state.has_error) {
            result->error_line = state.error_line;
            result->error_column = state.error_column;
            memcpy(result->error_message, state.error_message, sizeof result->error_message);
        } else {
            result->error_line = ctxt->input ? ctxt->input->line : 0;
            result->error_column = ctxt->input ? ctxt->input->col : 0;
            snprintf(result->error_message, sizeof result->error_message, "libxml2 error %d", rc);
        }
    }
    result->elements = state.elements;

    xmlFreeParserCtxt(ctxt);
    free(buffer);
    close(fd);
    return code;
}

const char *cbaresax_libxml2_version(void) { return xmlParserVersion; }
