#!/usr/bin/env bash
# Test fixtures for the HEIC, multi-page TIFF and WebP formats (test/fixtures/formats/), made from the
# shared opencv-doc photos and the generated copy-move case with Debian's command-line tools:
#   apt-get install webp libtiff-tools libheif-examples libimage-exiftool-perl
# Damaged variants are cut from these in the tests. Each keeps the camera EXIF of its source photo (iPhone 6, leuvenA.jpg: Make, Model, DateTimeOriginal, GPS).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
shared=${SHARED_DATA:-$here/../shared/data}
out=$here/test/fixtures/formats
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
photo=$shared/photos/opencv-doc/leuvenA.jpg

# WebP (lossy, VP8X with an EXIF chunk): the photo itself.
cwebp -quiet -q 85 -metadata exif "$photo" -o "$out/leuven.webp"

# HEIC: the photo through x265, its EXIF carried over by heif-enc (an Exif item).
heif-enc -q 50 "$photo" -o "$out/leuven.heic" >/dev/null

# Multi-page TIFF (Deflate with horizontal predictor, 3 pages), crops small enough to commit: the photo,
# the generated copy-move case (both copies of its region inside the crop) and a second photo;
# the photo's EXIF is written into the first page's IFD (EXIF sub-IFD, GPS).
page() { # source.jpg x y w h -> page.tif (RGB, 8 bit)
  cwebp -quiet -lossless -crop "$2" "$3" "$4" "$5" "$1" -o "$work/p.webp"
  dwebp -quiet "$work/p.webp" -tiff -o "$work/$6.raw.tif"
  tiffcp -c zip:2 "$work/$6.raw.tif" "$work/$6.tif"
}
page "$photo" 200 150 256 192 1
page "$here/test/fixtures/generated/copymove/leuvenA.jpg" 60 70 288 160 2
page "$shared/photos/opencv-doc/board.jpg" 100 100 192 144 3
tiffcp "$work/1.tif" "$work/2.tif" "$work/3.tif" "$out/pages.tiff"
exiftool -q -overwrite_original -tagsFromFile "$photo" -exif:all "$out/pages.tiff"

# Small WebP and HEIC whose only trace of editing is XMP (CreatorTool, as Photoshop writes it): the
# WebP "XMP " chunk and the HEIF XMP item, which exifr does not read by itself.
cwebp -quiet -q 85 -resize 64 48 "$photo" -o "$out/xmp-edited.webp"
dwebp -quiet "$out/xmp-edited.webp" -o "$work/small.png"
heif-enc -q 50 "$work/small.png" -o "$out/xmp-edited.heic" >/dev/null
exiftool -q -overwrite_original -XMP-xmp:CreatorTool="Adobe Photoshop 25.0 (Windows)" "$out/xmp-edited.webp" "$out/xmp-edited.heic"

# Pages over the full-bitmap budget (image-pages.ts, images/page-png.ts): a 24 MP tiled HEIC (5712 x 4284, 12 x 9
# tiles of 512 x 512, as an iPhone's 24 MP photo; leuvenA scaled up, so 234 KB) and an A4 colour scan at 300 dpi
# (2480 x 3508, Deflate strips of 16 rows). Both need python3 with OpenCV (/usr/bin/python3: python3-opencv).
/usr/bin/python3 "$here/scripts/datagen/tiled_heic.py" "$photo" 5712 4284 30 "$out/tiled-24mp.heic"
/usr/bin/python3 "$here/scripts/datagen/scan_tiff.py" "$photo" "$out/scan-a4.tiff"

ls -l "$out"
