#include <dbus/dbus.h>

/* libdbus's type codes are cast macros, which Swift does not import. */
static const int tt_dbus_type_string = DBUS_TYPE_STRING;
static const int tt_dbus_type_uint32 = DBUS_TYPE_UINT32;
static const int tt_dbus_type_byte = DBUS_TYPE_BYTE;
static const int tt_dbus_type_array = DBUS_TYPE_ARRAY;
static const int tt_dbus_type_variant = DBUS_TYPE_VARIANT;
static const int tt_dbus_type_struct = DBUS_TYPE_STRUCT;
static const int tt_dbus_type_dict_entry = DBUS_TYPE_DICT_ENTRY;
static const int tt_dbus_type_object_path = DBUS_TYPE_OBJECT_PATH;
static const int tt_dbus_message_signal = DBUS_MESSAGE_TYPE_SIGNAL;
static const int tt_dbus_message_error = DBUS_MESSAGE_TYPE_ERROR;
