#!/bin/sh
# Unpacks extra real photos from Debian packages into $ML_EXTRA_PHOTOS (default /tmp/ml-extra-photos).
# mate-backgrounds 1.26.0-1 (GPL-2+): the nature/ photos that shared/data does not already hold.
# Only used for training; nothing from them is committed.
set -e
DEST="${ML_EXTRA_PHOTOS:-/tmp/ml-extra-photos}"
WORK="$(mktemp -d)"
mkdir -p "$DEST"
cd "$WORK"
apt-get download mate-backgrounds
for deb in *.deb; do dpkg-deb -x "$deb" x; done
for f in Aqua FreshFlower Garden GreenMeadow LadyBird RainDrops TwoWings YellowFlower; do
  cp "x/usr/share/backgrounds/mate/nature/$f.jpg" "$DEST/"
done
rm -rf "$WORK"
ls "$DEST"
