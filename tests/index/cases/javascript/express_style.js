// Express-style request and response helpers.
var req = Object.create(http.IncomingMessage.prototype);
var res = Object.create(http.ServerResponse.prototype);

res.send = function send(body) {
  return this.end(body);
};

req.get =
req.header = function header(name) {
  return this.headers[name.toLowerCase()];
};

exports.run = () => 1;

function setup() {
  this.handler = function () {};
  run = function () {};
}

defineGetter(req, 'hostname', function hostname() {
  return this.get('Host');
});

app.use(() => 1);

res.json =
res.jsonp =
res.jsonpx = function jsonp(obj) {
  return this.send(obj);
};
