require "logger"

# Before the error.
class Before
  def ok
    Logger.new($stdout).info("ok")
  end
end

class Broken
  # The argument list never closes.
  def broken(a, b
    a +
  end
end

# After the error.
class After
  def fine
    :fine
  end
end
