# A resource server protected by rack-oauth2's MAC verifier (Rack::OAuth2::Server::Resource::MAC
# and AccessToken::MAC#verify!), served over HTTP by WEBrick on 127.0.0.1, for our headers to face.
#
# Run by tests/interop/interop.test.ts with Debian's /usr/bin/ruby, ruby-rack-oauth2 and ruby-webrick.
# `--version` prints the gem's version. Otherwise stdin is {"credentials": [{"kid", "key"}]}; it
# prints "listening on http://127.0.0.1:PORT", then answers 200 {"verified": kid} to a request whose
# MAC header verifies and 401 with the verifier's reason to one that does not. rack-oauth2 reads the
# host and port from the request (Host and X-Forwarded-Proto), as a server behind a TLS-terminating
# proxy does. Stops on SIGTERM or SIGINT.
require 'json'
require 'uri'
require 'webrick'
require 'rack'
require 'rack/handler/webrick'
require 'rack/oauth2'

if ARGV == ['--version']
  puts Rack::OAuth2::VERSION
  exit
end

credentials = JSON.parse($stdin.read).fetch('credentials').to_h do |credential|
  [credential.fetch('kid'), credential.fetch('key')]
end

resource = lambda do |env|
  token = env[Rack::OAuth2::Server::Resource::ACCESS_TOKEN]
  return [401, { 'content-type' => 'application/json' }, ['{"error":"no MAC header"}']] unless token

  [200, { 'content-type' => 'application/json' }, [JSON.generate({ verified: token.access_token })]]
end

app = Rack::OAuth2::Server::Resource::MAC.new(resource, 'interop') do |request|
  key = credentials[request.access_token] or request.invalid_token!('unknown id')
  token = Rack::OAuth2::AccessToken::MAC.new(
    access_token: request.access_token,
    mac_key: key,
    mac_algorithm: 'hmac-sha-1'
  )
  token.verify!(request)
  token
end

server = WEBrick::HTTPServer.new(
  BindAddress: '127.0.0.1',
  Port: 0,
  Logger: WEBrick::Log.new($stderr, WEBrick::Log::WARN),
  AccessLog: []
)
server.mount('/', Rack::Handler::WEBrick, app)
%w[TERM INT].each { |signal| trap(signal) { server.shutdown } }
puts "rack-oauth2 #{Rack::OAuth2::VERSION} verifier listening on http://127.0.0.1:#{server.config[:Port]}"
$stdout.flush
server.start
