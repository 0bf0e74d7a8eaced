def before_error(a):
    """Still found."""
    return a + 1


def broken(:
    return )


class AfterError:
    def method(self):
        return before_error(2)


def last():
    return AfterError().method()
