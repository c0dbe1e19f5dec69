# Signs requests with the oauth2 gem's OAuth2::MACToken#header (the header its #request sends).
#
# Run by tests/interop/interop.test.ts with Debian's /usr/bin/ruby and ruby-oauth2.
# `--version` prints the gem's version; otherwise stdin is {"requests": [{"kid", "key", "method",
# "url"}]} and stdout is {"headers": [...]}, one Authorization header per request, in order.
# Nothing is sent anywhere: #header only builds the header.
require 'json'
# MACToken#header calls URI.parse without requiring 'uri' (Faraday loads it in normal use).
require 'uri'
require 'oauth2'
require 'oauth2/version'

if ARGV == ['--version']
  puts OAuth2::Version.to_s
  exit
end

requests = JSON.parse($stdin.read).fetch('requests')
# A client is only needed to make a token; nothing here connects.
client = OAuth2::Client.new('interop-client', 'unused')
headers = requests.map do |request|
  # The gem's default algorithm is hmac-sha-256; the service's is hmac-sha-1.
  token = OAuth2::MACToken.new(client, request['kid'], request['key'], algorithm: 'hmac-sha-1')
  token.header(request['method'], request['url'])
end
puts JSON.generate({ headers: headers })
