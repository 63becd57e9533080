#!/bin/sh
# deps.sh PKG...: apt-get install the Debian packages of the list that are not
# installed yet.  Quiet when nothing is missing; needs root (or sudo).
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "deps: installing$missing" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -q --no-install-recommends $missing >&2; then
	$SUDO apt-get update -q >&2 &&
		$SUDO apt-get install -y -q --no-install-recommends $missing >&2
fi
