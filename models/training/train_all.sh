#!/bin/sh
# One command: fetch the extra Debian photos, retrain both models (fixed seeds), re-export the ONNX
# files + models/manifest.json + held-out metrics, and re-record the Worker parity references.
# Needs Debian python3-torch, python3-onnx, python3-opencv (apt-get install -y ...). ~40 min on one free core.
set -e
cd "$(dirname "$0")/../.."
[ -d "${ML_EXTRA_PHOTOS:-/tmp/ml-extra-photos}" ] || sh models/training/fetch_extra.sh
nice -n 10 /usr/bin/python3 models/training/train_recapture.py
nice -n 10 /usr/bin/python3 models/training/train_manipulation.py
/usr/bin/python3 models/training/record_reference.py
echo "done: commit models/*.onnx models/manifest.json models/*.metrics.json models/training/weights test/ml/fixtures"
