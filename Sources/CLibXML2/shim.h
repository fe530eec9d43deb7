// libxml2 for the C glue only (CHealthSAX, the benchmark's bare pass). No Swift module imports this.
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <libxml/dict.h>
