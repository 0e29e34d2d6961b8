// The header's declaration is all this module is for; SwiftPM makes a C module only from sources.
#include "CLibFuzzer.h"
