// libarchive, used to stream the export's XML entry out of export.zip without extracting it.
#include <archive.h>
#include <archive_entry.h>
