#!/bin/sh
# After `meson install`: the prefix's MIME and desktop databases, so that the drawing type resolves
# and file managers offer the app for it. Skipped for packaging (DESTDIR), and where the tools
# are missing (they come with shared-mime-info and desktop-file-utils).
set -e
datadir="$1"
[ -n "$DESTDIR" ] && exit 0
if command -v update-mime-database >/dev/null; then update-mime-database "$datadir/mime"; fi
if command -v update-desktop-database >/dev/null; then update-desktop-database "$datadir/applications"; fi
