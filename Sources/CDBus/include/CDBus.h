/* libdbus (Debian's libdbus-1-3), opened with dlopen when the app first asks the desktop something
 * (its style, at the window's start; the Save dialog): linked, it would load libdbus and libsystemd
 * with its compression and crypto libraries into every run, the command-line export included, and a
 * system without libdbus could not start the app at all. The types are libdbus's public ABI, stable since 1.0: its
 * error struct as it is, and its message iterator as a buffer at least as large and as aligned
 * (libdbus 1.14's is 72 bytes on 64-bit systems). */
#ifndef TT_CDBUS_H
#define TT_CDBUS_H
#include <stdint.h>

typedef struct TTDBusConnection TTDBusConnection;
typedef struct TTDBusMessage TTDBusMessage;

typedef struct {
    const char *name;
    const char *message;
    unsigned int flags;   /* libdbus's five one-bit fields */
    void *padding;
} TTDBusError;

typedef struct {
    void *space[16];
} TTDBusMessageIter;

/* Type codes and message types of the D-Bus specification. */
static const int tt_dbus_type_byte = 'y', tt_dbus_type_uint32 = 'u', tt_dbus_type_string = 's',
    tt_dbus_type_object_path = 'o', tt_dbus_type_array = 'a', tt_dbus_type_variant = 'v',
    tt_dbus_type_struct = 'r', tt_dbus_type_dict_entry = 'e', tt_dbus_type_double = 'd',
    tt_dbus_type_int32 = 'i', tt_dbus_type_boolean = 'b', tt_dbus_type_int16 = 'n';
static const int tt_dbus_message_method_call = 1, tt_dbus_message_method_return = 2, tt_dbus_message_error = 3,
    tt_dbus_message_signal = 4;

/* Opens libdbus-1.so.3 and looks up every call (once); 0 when it cannot, with the reason in
 * tt_dbus_load_error(). Every tt_dbus_ call below needs a successful load first. */
int tt_dbus_load(void);
const char *tt_dbus_load_error(void);

#define F(ret, name, params, args) ret tt_##name params;
#include "../functions.h"
#undef F

#endif
