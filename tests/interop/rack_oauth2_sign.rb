# Signs requests with rack-oauth2's client side, Rack::OAuth2::AccessToken::MAC#authenticate: the
# request filter its HTTP client (httpclient) runs before sending, applied to an httpclient request.
#
# Run by tests/interop/interop.test.ts with Debian's /usr/bin/ruby and ruby-rack-oauth2.
# `--version` prints the gem's version; otherwise stdin is {"requests": [{"kid", "key", "method",
# "url"}]} and stdout is {"headers": [...]}, one Authorization header per request, in order.
# Nothing is sent anywhere.
require 'json'
require 'uri'
require 'rack/oauth2'
require 'httpclient'

if ARGV == ['--version']
  puts Rack::OAuth2::VERSION
  exit
end

requests = JSON.parse($stdin.read).fetch('requests')
headers = requests.map do |request|
  token = Rack::OAuth2::AccessToken::MAC.new(
    access_token: request['kid'],
    mac_key: request['key'],
    mac_algorithm: 'hmac-sha-1'
  )
  message = HTTP::Message.new_request(request['method'].downcase.to_sym, URI.parse(request['url']))
  token.authenticate(message)
  message.header['Authorization'].first
end
puts JSON.generate({ headers: headers })
