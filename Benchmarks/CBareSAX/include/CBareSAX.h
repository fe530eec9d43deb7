// Placeholder: the bare libxml2 SAX2 pass used as the benchmark's baseline.
#ifndef CBARESAX_H
#define CBARESAX_H
int cbaresax_placeholder(void);
#endif
