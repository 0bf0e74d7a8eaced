#!/usr/bin/env bash
# Deploy helpers.
set -euo pipefail
source ./lib/common.sh
. "$HOME/.profile"

# Builds the image.
# Usage: build TAG
build() {
  local tag="$1"
  docker build -t "app:$tag" .
  log_info "built $tag"
}

function deploy {
  build "$@"
  kubectl apply -f k8s/
}

function rollback() {
  echo "rolling back" >&2
  deploy "$PREVIOUS_TAG"
}

deploy "$@"
