#!/bin/sh
# Rebuilds an Italian corpus entry: a FatturaPA XML of OCA/l10n-italy rendered
# by one of the stylesheets that repository ships (AssoSoftware's or the SdI's
# own), then printed to PDF by Chromium, network off (decision 093's rule for
# printed renderings). Usage:
#   render-fatturapa.sh <l10n-italy git dir> <commit> <xml path> <xsl path> <out.pdf>
# Chromium applies the stylesheet (--dump-dom gives the transformed page, without
# the browser's XSLT notice), and prints that page.
set -eu
repo=$1; commit=$2; xml=$3; xsl=$4; out=$5
tmp=$(mktemp -d)
git -C "$repo" show "$commit:$xsl" > "$tmp/style.xsl"
git -C "$repo" show "$commit:$xml" | sed '1a <?xml-stylesheet type="text/xsl" href="style.xsl"?>' > "$tmp/doc.xml"
set -- --headless=new --no-sandbox --allow-file-access-from-files "--host-resolver-rules=MAP * ~NOTFOUND"
chromium "$@" --dump-dom "file://$tmp/doc.xml" 2>/dev/null > "$tmp/doc.html"
chromium "$@" --no-pdf-header-footer --print-to-pdf="$out" "file://$tmp/doc.html" 2>/dev/null
rm -r "$tmp"
