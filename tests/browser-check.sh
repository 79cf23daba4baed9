#!/bin/sh
# browser-check.sh PAGE.html SHOT.png: loads PAGE in headless Chromium
# twice: once with #selftest (the page exercises its legend toggles and
# timeline zoom and writes the outcome into the DOM), printing the DOM
# after scripts ran on stdout; once to take a screenshot into SHOT.
# Exits 1 if the browser logged any console message (the page logs
# only errors) or uncaught exception, 4 if Chromium is missing or fails.
page=$1
shot=$2
[ -n "$page" ] && [ -n "$shot" ] || {
	echo "usage: browser-check.sh page.html shot.png" >&2
	exit 2
}
for c in chromium chromium-browser google-chrome; do
	command -v "$c" >/dev/null 2>&1 && { browser=$c; break; }
done
[ -n "$browser" ] || { echo "browser-check: no chromium" >&2; exit 4; }
case $page in
/*) url=file://$page ;;
*) url=file://$PWD/$page ;;
esac
prof=$(mktemp -d) || exit 4
log=$prof.log
trap 'rm -rf "$prof" "$log"' EXIT
# Flags that work as root in a container with no GPU and no network;
# the profile is thrown away.
run() {
	timeout 60 "$browser" --headless --no-sandbox --disable-gpu \
		--disable-quic --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync \
		--disable-dev-shm-usage --hide-scrollbars \
		--user-data-dir="$prof" --enable-logging=stderr --v=0 "$@"
}
run --dump-dom "$url#selftest" 2>"$log" || {
	cat "$log" >&2
	exit 4
}
if grep -q 'CONSOLE' "$log"; then
	grep 'CONSOLE' "$log" >&2
	exit 1
fi
run --window-size=1280,1600 --screenshot="$shot" "$url" 2>"$log" >/dev/null || {
	cat "$log" >&2
	exit 4
}
if grep -q 'CONSOLE' "$log"; then
	grep 'CONSOLE' "$log" >&2
	exit 1
fi
[ -s "$shot" ] || { echo "browser-check: no screenshot" >&2; exit 4; }
