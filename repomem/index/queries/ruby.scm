; Ruby tag query (repomem capture convention: see repomem/index/parser.py)
;
; Decisions:
; - `def x` and `def self.x` are `function`s, which become `method`s inside a class or module;
;   methods in `class << self` belong to the enclosing class.
; - `class Admin::User` captures `Admin` as `@receiver`, so its qualified name is `Admin.User`
;   (for `A::B::C` the receiver is the last scope, `B`).
; - Constant assignments (`VERSION = "1.0"`) are `constant`s; attr_accessor & co. are not symbols
;   (their names are symbols, `:name`, with no identifier node to capture).
; - `Foo.new` is a call reference to `Foo` (like `new Foo` elsewhere); other calls are references
;   to the method name. Constant receivers (`Foo.bar`, `Foo::Bar.baz`), superclasses and
;   include/extend/prepend arguments are `class` references.
; - require / require_relative / load with a literal string are imports (the string content).
; - Predicates must sit inside a pattern's outer parentheses: `((pattern) (#eq? ...))`;
;   py-tree-sitter ignores `#not-any-of?`, so exclusions use `#not-match?`.

; ---------------------------------------------------------------------------------------------
; Definitions

(class
  name: (constant) @name) @definition.class

(class
  name: (scope_resolution
    scope: [
      (constant) @receiver
      (scope_resolution name: (constant) @receiver)
    ]
    name: (constant) @name)) @definition.class

(module
  name: (constant) @name) @definition.module

(module
  name: (scope_resolution
    scope: [
      (constant) @receiver
      (scope_resolution name: (constant) @receiver)
    ]
    name: (constant) @name)) @definition.module

(method
  name: [(identifier) (constant) (operator) (setter)] @name) @definition.function

(singleton_method
  name: [(identifier) (constant) (operator) (setter)] @name) @definition.function

(assignment
  left: (constant) @name) @definition.constant

; ---------------------------------------------------------------------------------------------
; References

; method calls: foo(1), obj.foo, Foo.bar (but not `require` or `new`)
((call
  method: (identifier) @name) @reference.call
  (#not-match? @name "^(new|require|require_relative|load)$"))

; Foo.new / Foo::Bar.new
((call
  receiver: [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ]
  method: (identifier) @_new) @reference.call
  (#eq? @_new "new"))

; Foo.bar / Foo::Bar.baz: the class used
((call
  receiver: [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ]
  method: (identifier) @_method) @reference.class
  (#not-eq? @_method "new"))

; superclasses
(superclass
  [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ]) @reference.class

; mixins: include Comparable, extend Forwardable, prepend Foo::Bar
((call
  method: (identifier) @_mixin
  arguments: (argument_list
    [
      (constant) @name
      (scope_resolution name: (constant) @name)
    ])) @reference.class
  (#any-of? @_mixin "include" "extend" "prepend"))

; ---------------------------------------------------------------------------------------------
; Imports: require "json", require_relative "lib/util"

((call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @name))) @import
  (#any-of? @_require "require" "require_relative" "load"))
