#!/bin/sh
# Builds the touchtracker binary with SwiftPM (release) and copies it to meson's output path, or
# copies a prebuilt one. Usage: build-app.sh PACKAGE_ROOT OUTPUT [PREBUILT]
set -eu
root=$1
output=$2
prebuilt=${3:-}
if [ -n "$prebuilt" ]; then
  cp "$prebuilt" "$output"
else
  swift build -c release --product touchtracker --package-path "$root"
  cp "$(swift build -c release --package-path "$root" --show-bin-path)/touchtracker" "$output"
fi
chmod 755 "$output"
