#!/usr/bin/env bash
# make-tls.sh DIR [DNS-NAME...]: a self-signed CA, the frontend's
# certificate (127.0.0.1, localhost and the names given), a client pair and
# an API key, in DIR, unless DIR already has them. Used by
# scripts/cluster.sh and the Docker image (tools/temporal-cluster/docker).
set -euo pipefail
dir=${1:?usage: make-tls.sh DIR [DNS-NAME...]}
shift
[ -f "$dir/api-key" ] && exit 0
san="IP:127.0.0.1,DNS:localhost"
for name in "$@"; do san+=",DNS:$name"; done
mkdir -p "$dir"
cd "$dir"
umask 077
o=(-nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1)
openssl req -x509 "${o[@]}" -keyout ca-key.pem -out ca.pem -days 3650 -subj "/CN=autoscheduler cluster CA" \
	-addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
openssl req "${o[@]}" -keyout server-key.pem -out server.csr -subj "/CN=temporal-frontend"
printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n' "$san" >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out server.pem -days 825 -extfile server.ext
openssl req "${o[@]}" -keyout client-key.pem -out client.csr -subj "/CN=autoscheduler"
printf 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n' >client.ext
openssl x509 -req -in client.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -out client.pem -days 825 -extfile client.ext
openssl rand -hex 32 >api-key.tmp
rm -f ./*.csr ./*.ext ca.srl
chmod 644 ca.pem server.pem client.pem
mv api-key.tmp api-key # last: its presence means the set is complete
