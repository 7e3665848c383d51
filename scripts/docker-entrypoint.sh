#!/bin/sh
# Entry point of the api image (api/Dockerfile). The api writes to DATA_DIR (the embedded
# database, uploaded files). A volume or host directory mounted there usually belongs to root,
# while the api runs as an unprivileged user (APP_USER, `node` in the image). Started as root,
# as Docker does by default, this gives DATA_DIR to that user (only when it belongs to someone
# else) and starts the command as that user; started as any other user (docker run --user,
# Kubernetes runAsNonRoot), it starts the command as it is, and an unwritable DATA_DIR is one
# clear line from the api.
set -eu
data="${DATA_DIR:-/data}"
user="${APP_USER:-node}"
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$data"
  if [ "$(stat -c %u "$data")" != "$(id -u "$user")" ]; then
    chown -R "$user:$(id -g "$user")" "$data"
  fi
  HOME="$(getent passwd "$user" | cut -d: -f6)"
  export HOME
  exec setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups -- "$@"
fi
exec "$@"
