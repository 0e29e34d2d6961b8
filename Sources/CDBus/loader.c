// libdbus's calls through pointers looked up at the first use (see CDBus.h for why).
#include "CDBus.h"
#include <dlfcn.h>
#include <stddef.h>

#define F(ret, name, params, args) static ret (*p_##name) params;
#include "functions.h"
#undef F

#define F(ret, name, params, args) ret tt_##name params { return p_##name args; }
#include "functions.h"
#undef F

static int loaded;
static const char *load_error = "not loaded";

int tt_dbus_load(void) {
    if (loaded) return 1;
    void *library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = dlerror();
        return 0;
    }
#define F(ret, name, params, args)                                   \
    if (!(p_##name = (ret (*) params)dlsym(library, #name))) {       \
        load_error = "libdbus-1.so.3 lacks " #name;                  \
        dlclose(library);                                            \
        return 0;                                                    \
    }
#include "functions.h"
#undef F
    loaded = 1;
    return 1;
}

const char *tt_dbus_load_error(void) { return load_error; }
