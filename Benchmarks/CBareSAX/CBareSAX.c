#include "CBareSAX.h"
int cbaresax_placeholder(void) { return 0; }
