#include "config.h"
#include "gentrace.h"
