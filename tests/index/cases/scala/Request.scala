package sttp.client4

import scala.concurrent.{ExecutionContext, Future}
import sttp.model._
import sttp.client4.internal.Rfc3986

/** A request to send.
  *
  * @param uri
  *   where to send it
  */
case class Request[T](uri: Uri, body: T) extends RequestBase[T] with Serializable {
  val method: Method = Method.GET
  private var retries = 0

  /** Sends the request with the given backend. */
  def send(backend: Backend)(implicit ec: ExecutionContext): Future[Response[T]] =
    backend.send(this)

  // Replaces a header.
  @deprecated("use withHeader", "4.0")
  def header(k: String, v: String): Request[T] = {
    retries += 1
    copy(uri = uri.addParam(k, v))
  }

  type Out = Response[T]
}

object Request {
  final val DefaultTimeout = 30

  def apply(uri: Uri): Request[Unit] = new Request(uri, ())
}

/** Sends requests. */
trait Backend {
  def send[T](r: Request[T]): Future[Response[T]]

  def close(): Unit = ()
}

sealed trait Shape
final case class Circle(r: Double) extends Shape

enum Color {
  case Red, Green
  case Mixed(r: Int, g: Int)
}

abstract class RequestBase[T] {
  def uri: Uri
}

extension (s: String) def slug: String = s.toLowerCase.replace(' ', '-')

def encode(s: String): String = Rfc3986.encode(s)
