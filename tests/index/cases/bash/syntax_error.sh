#!/bin/sh

# Prints a greeting.
greet() {
  echo "hello $1"
}

broken() {
  if [ -z "$1" ; then
    echo "missing"
}

# Says goodbye.
bye() {
  echo "bye"
}
