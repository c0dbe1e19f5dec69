# An integrator's Ruby signer (Net::HTTP, OpenSSL::HMAC): not the vendor's sample.
# ruby sign.rb <kid> <key> <url> <ts> <variant> <style>
require 'openssl'
require 'securerandom'
require 'base64'
require 'uri'
require 'net/http'

kid, key, url, ts, variant, style = ARGV
uri = URI(url)
request = Net::HTTP::Get.new(uri)
nonce = case style
        when 'a' then SecureRandom.base64(16)
        when 'b' then SecureRandom.alphanumeric(16)
        # Ported from the docs' PHP sample, its fixed nonce kept ("replace before launch").
        else '== XinDong_Lee-JiEun =='
        end
host = variant == 'host-legacy' ? 'openapi.taptap.com' : uri.host
path = variant == 'query-dropped' ? uri.path : request.path
base = "#{ts}\n#{nonce}\nGET\n#{path}\n#{host}\n443\n\n"
digest = variant == 'hmac-sha256' ? 'SHA256' : 'SHA1'
mac = Base64.strict_encode64(OpenSSL::HMAC.digest(digest, key, base))
parts = { id: kid, ts: ts, nonce: nonce, mac: mac }.map { |k, v| %(#{k}="#{v}") }
puts 'MAC ' + parts.join(style == 'b' ? ', ' : ',')
