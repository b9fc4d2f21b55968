#!/bin/bash
# mkpack.sh BUILDDIR DEST NAME: copy gd_send_lat gd_write_bw gd_read_bw (stripped) into DEST/NAME/
set -eu
b=$1 d=$2 n=$3
mkdir -p "$d/$n"
for t in gd_send_lat gd_write_bw gd_read_bw; do cp "$b/tools/$t" "$d/$n/"; strip "$d/$n/$t"; done
