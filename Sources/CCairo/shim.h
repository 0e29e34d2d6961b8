#include <cairo.h>
#include <cairo-svg.h>
// Text without Pango: fontconfig picks the fonts, cairo-ft draws their glyphs (Graphics/Text*).
#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
