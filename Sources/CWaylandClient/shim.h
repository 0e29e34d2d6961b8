#include <wayland-client-core.h>
