; JavaScript tag query (repomem capture convention: see repomem/index/parser.py)
;
; TypeScript and TSX load this file followed by typescript.scm, compiled against their own
; grammars, so every pattern here must compile in the JavaScript, TypeScript and TSX grammars:
; no JS-only node types (field_definition, jsx_*, using_declaration) and no JS-only field names
; (`member:`). Where JS and TS shapes differ, a wildcard node constrained by fields or a text
; predicate selects the JS shape; typescript.scm adds the TS shapes.
; Definitions whose doc comment sits before a statement are captured on that statement
; (lexical_declaration, expression_statement) so the parser finds the leading comment.

; ---------------------------------------------------------------------------------------------
; Definitions

(class_declaration
  name: (_) @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(method_definition
  name: [(property_identifier) (private_property_identifier)] @name
  (#not-eq? @name "constructor")) @definition.method

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @definition.constructor

; const f = () => {}, let g = function () {}, var h = function* () {}, const C = class {}.
; A declaration with a single declarator is captured whole (its doc comment precedes it); with
; several declarators each declarator is captured alone (they would otherwise nest in each other).
(lexical_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])
  .) @definition.function

(variable_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])
  .) @definition.function

(lexical_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: (class))
  .) @definition.class

(variable_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: (class))
  .) @definition.class

[
  (lexical_declaration
    (variable_declarator)
    .
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
    .
    (variable_declarator))
  (variable_declaration
    (variable_declarator)
    .
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
    .
    (variable_declarator))
]

; class fields holding functions or classes: handler = () => {}, static Entry = class {} (JS
; `field_definition`, matched by its fields; the TS `public_field_definition` is in typescript.scm)
(class_body
  (_
    property: [(property_identifier) (private_property_identifier)] @name
    value: [(arrow_function) (function_expression) (generator_function)]) @definition.function)

(class_body
  (_
    property: [(property_identifier) (private_property_identifier)] @name
    value: (class)) @definition.class)

; object members holding functions: { run: () => {}, "go": function () {} }
(pair
  key: [
    (property_identifier) @name
    (string (string_fragment) @name)
  ]
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

; Foo.prototype.bar = function () {}: a method of Foo
(expression_statement
  (assignment_expression
    left: (member_expression
      object: (member_expression
        object: (identifier) @receiver
        property: (property_identifier) @_prototype)
      property: (property_identifier) @name)
    right: [(arrow_function) (function_expression) (generator_function)])
  (#eq? @_prototype "prototype")) @definition.method

; module.exports.run = function () {}, exports.run = () => {}, this.run = ..., run = function () {}
(expression_statement
  (assignment_expression
    left: [
      (identifier) @name
      (member_expression
        object: [
          (identifier) @_exports
          (this)
          (member_expression property: (property_identifier) @_object)
        ]
        property: (property_identifier) @name)
    ]
    right: [(arrow_function) (function_expression) (generator_function)])
  (#not-eq? @_object "prototype")
  (#match? @_exports "^(exports|module)$")) @definition.function

; res.send = function send() {}: a function of the object `res` (Express's style), also the
; last of a chain (req.get = req.header = function header() {} defines `req.header`)
(assignment_expression
  left: (member_expression
    object: (identifier) @receiver
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#not-match? @receiver "^(exports|module)$")) @definition.function

; the earlier names of a chain (req.get in req.get = req.header = function header() {}, also
; two deep), defined on the function's own assignment so every name has the function's lines
(assignment_expression
  left: (member_expression
    object: (identifier) @receiver
    property: (property_identifier) @name)
  right: [
    (assignment_expression
      right: [(arrow_function) (function_expression) (generator_function)]) @definition.function
    (assignment_expression
      right: (assignment_expression
        right: [(arrow_function) (function_expression) (generator_function)]) @definition.function)
  ]
  (#not-match? @receiver "^(exports|module)$"))

; defineGetter(req, 'hostname', function hostname() {}), app.use(function logger() {}): a
; named function passed to a call is defined under its name
(call_expression
  arguments: (arguments
    (function_expression name: (identifier) @name) @definition.function))

; top-level constants: const MAX = 10, export const config = {...} (not functions, classes or
; require() results). Single declarators are captured with their declaration, as above.
(program
  (lexical_declaration
    kind: "const"
    .
    (variable_declarator
      name: (identifier) @name
      value: [
        (number) (string) (template_string) (regex) (true) (false) (null) (undefined)
        (object) (array) (identifier) (member_expression) (subscript_expression)
        (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression)
        (new_expression) (await_expression)
        (call_expression function: (_) @_callee (#not-match? @_callee "^(require|import)$"))
      ])
    .) @definition.constant)

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      .
      (variable_declarator
        name: (identifier) @name
        value: [
          (number) (string) (template_string) (regex) (true) (false) (null) (undefined)
          (object) (array) (identifier) (member_expression) (subscript_expression)
          (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression)
          (new_expression) (await_expression)
          (call_expression function: (_) @_callee (#not-match? @_callee "^(require|import)$"))
        ])
      .) @definition.constant))

(program
  [
    (lexical_declaration
      kind: "const"
      (variable_declarator)
      .
      (variable_declarator
        name: (identifier) @name
        value: [
          (number) (string) (template_string) (regex) (true) (false) (null) (undefined)
          (object) (array) (identifier) (member_expression) (subscript_expression)
          (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression)
          (new_expression) (await_expression)
          (call_expression function: (_) @_callee (#not-match? @_callee "^(require|import)$"))
        ]) @definition.constant)
    (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [
          (number) (string) (template_string) (regex) (true) (false) (null) (undefined)
          (object) (array) (identifier) (member_expression) (subscript_expression)
          (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression)
          (new_expression) (await_expression)
          (call_expression function: (_) @_callee (#not-match? @_callee "^(require|import)$"))
        ]) @definition.constant
      .
      (variable_declarator))
  ])

(program
  (export_statement
    declaration: [
      (lexical_declaration
        kind: "const"
        (variable_declarator)
        .
        (variable_declarator
          name: (identifier) @name
          value: [
            (number) (string) (template_string) (regex) (true) (false) (null) (undefined)
            (object) (array) (identifier) (member_expression) (subscript_expression)
            (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression)
            (new_expression) (await_expression)
            (call_expression function: (_) @_callee (#not-match? @_callee "^(require|import)$"))
          ]) @definition.constant)
      (lexical_declaration
        kind: "const"
        (variable_declarator
          name: (identifier) @name
          value: [
            (number) (string) (template_string) (regex) (true) (false) (null) (undefined)
            (object) (array) (identifier) (member_expression) (subscript_expression)
            (binary_expression) (unary_expression) (ternary_expression) (parenthesized_expression)
            (new_expression) (await_expression)
            (call_expression function: (_) @_callee (#not-match? @_callee "^(require|import)$"))
          ]) @definition.constant
        .
        (variable_declarator))
    ]))

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), obj.f(), obj?.f(), this.#f()
(call_expression
  function: (identifier) @name
  (#not-eq? @name "require")) @reference.call

(call_expression
  function: (member_expression
    property: [(property_identifier) (private_property_identifier)] @name)) @reference.call

; instantiation: new Foo(), new ns.Foo()
(new_expression
  constructor: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.class

; superclass in JS: class A extends B / extends ns.B (TS wraps it in extends_clause:
; typescript.scm). The identifier shape is matched by text since `(class_heritage (identifier))`
; is an impossible pattern in the TS grammars.
((class_heritage
  (_) @name) @reference.class
  (#match? @name "^[A-Za-z_$][A-Za-z0-9_$]*$"))

(class_heritage
  (_
    object: (_)
    property: (property_identifier) @name)) @reference.class

; JSX components: <Button ...>, <Button />, <Layout.Header> (capitalised: lowercase names are
; HTML elements). The JSX node types do not exist in the TS grammar, so the opening and
; self-closing elements are matched as "a node whose `name` follows a `<` token", which compiles
; everywhere and matches nothing but JSX.
((_
  "<"
  .
  name: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.call
  (#match? @name "^[A-Z]"))

; decorators: @dec, @ns.dec, @dec(...), @ns.dec(...)
(decorator
  [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
    (call_expression
      function: [
        (identifier) @name
        (member_expression property: (property_identifier) @name)
      ])
  ]) @reference.decorator

; imported bindings: import Default, { name, name as alias } from "x"
(import_clause (identifier) @name) @reference.imported

(import_specifier
  name: (identifier) @name) @reference.imported

; re-exported bindings: export { name, name as alias } from "x" (a package's index file)
(export_statement
  (export_clause
    (export_specifier name: (identifier) @name))
  source: (_)) @reference.imported

; static members: ShapeFlags.ELEMENT, Config.instance. A capitalized object is a class, an enum
; or a namespace, and its member is that definition's; a lower-case one is a value whose type
; a tag query cannot know. A member that is called is a call (see `member` in parser.py).
((member_expression
   object: (identifier) @name) @reference.member
  (#match? @name "^[A-Z]"))

((member_expression
   object: (identifier) @_object
   property: [(property_identifier) (private_property_identifier)] @name) @reference.member
  (#match? @_object "^[A-Z]"))

; ---------------------------------------------------------------------------------------------
; Imports

; import x from "m"; import "m"
(import_statement
  source: (string (string_fragment) @name)) @import

; export { x } from "m"; export * from "m"
(export_statement
  source: (string (string_fragment) @name)) @import

; require("m")
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string (string_fragment) @name))
  (#eq? @_require "require")) @import

; import("m")
(call_expression
  function: (import)
  arguments: (arguments . (string (string_fragment) @name))) @import
