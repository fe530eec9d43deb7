// CHealthSystem: the few C library calls that Swift cannot make itself (a macro, a glibc-only
// setting), for HealthExport's platform file (Sources/HealthExport/Platform.swift) and nothing
// else. No libxml2 here. Every exported symbol carries the `hsys_` prefix.
#ifndef CHEALTHSYSTEM_H
#define CHEALTHSYSTEM_H

#include "CHealthCores.h"
#include "CHealthMemory.h"

#endif
