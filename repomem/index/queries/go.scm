; Go tag query (repomem capture convention: see repomem/index/parser.py)
;
; A declaration with a single spec (`type T struct{}`, `const C = 1`) is captured whole, so the
; doc comment before the keyword is found; in a grouped declaration (`const ( ... )`) each spec
; is captured alone, with the comment just above it.

; ---------------------------------------------------------------------------------------------
; Definitions

(function_declaration
  name: (identifier) @name) @definition.function

; methods: the receiver type names the parent, so `func (s *Server) Handle()` is Server.Handle
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

; types, by what they are: struct, interface, or any other type (incl. aliases)
((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (struct_type))) @definition.struct
  (#match? @definition.struct "^type\\s*[^\\s(]"))

((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (interface_type))) @definition.interface
  (#match? @definition.interface "^type\\s*[^\\s(]"))

((type_declaration
  (type_spec
    name: (type_identifier) @name
    type: (_) @_type)) @definition.type
  (#not-match? @_type "^(struct|interface)\\s*\\{")
  (#match? @definition.type "^type\\s*[^\\s(]"))

((type_declaration
  (type_alias
    name: (type_identifier) @name)) @definition.type
  (#match? @definition.type "^type\\s*[^\\s(]"))

(type_declaration
  "("
  (type_spec
    name: (type_identifier) @name
    type: (struct_type)) @definition.struct)

(type_declaration
  "("
  (type_spec
    name: (type_identifier) @name
    type: (interface_type)) @definition.interface)

((type_declaration
  "("
  (type_spec
    name: (type_identifier) @name
    type: (_) @_type) @definition.type)
  (#not-match? @_type "^(struct|interface)\\s*\\{"))

(type_declaration
  "("
  (type_alias
    name: (type_identifier) @name) @definition.type)

; interface methods: type Handler interface { Handle() }
(interface_type
  (method_elem
    name: (field_identifier) @name) @definition.method)

; package-level constants and variables. A spec declaring several names (`const A, B = 1, 2`)
; has each name captured on its own identifier, since the names share one node.
((source_file
  (const_declaration
    (const_spec
      name: (identifier) @name) @_spec) @definition.constant)
  (#match? @definition.constant "^const\\s*[^\\s(]")
  (#not-match? @_spec "^\\w+\\s*,"))

((source_file
  (const_declaration
    "("
    (const_spec
      name: (identifier) @name) @definition.constant))
  (#not-match? @definition.constant "^\\w+\\s*,"))

; (the `name:` field only matches the first name of a const_spec, hence the bare child)
((source_file
  (const_declaration
    (const_spec
      (identifier) @name @definition.constant) @_spec))
  (#match? @_spec "^\\w+\\s*,"))

((source_file
  (var_declaration
    (var_spec
      name: (identifier) @name) @_spec) @definition.variable)
  (#not-eq? @name "_")
  (#not-match? @_spec "^\\w+\\s*,"))

((source_file
  (var_declaration
    (var_spec_list
      (var_spec
        name: (identifier) @name) @definition.variable)))
  (#not-eq? @name "_")
  (#not-match? @definition.variable "^\\w+\\s*,"))

((source_file
  (var_declaration
    [
      (var_spec
        name: (identifier) @name @definition.variable) @_spec
      (var_spec_list
        (var_spec
          name: (identifier) @name @definition.variable) @_spec)
    ]))
  (#not-eq? @name "_")
  (#match? @_spec "^\\w+\\s*,"))

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), pkg.F(), obj.Method(), (f)()
(call_expression
  function: [
    (identifier) @name
    (selector_expression field: (field_identifier) @name)
    (parenthesized_expression (identifier) @name)
    (parenthesized_expression (selector_expression field: (field_identifier) @name))
  ]) @reference.call

; type uses: every type_identifier in Go is in a type position (type parameters are declared
; with plain identifiers). Declared type names are dropped by the parser; a method's receiver
; type counts as a use by the method. Predeclared types are left out (`#not-any-of?` is not
; honoured by py-tree-sitter 0.26, hence the regex).
((type_identifier) @name @reference.type
  (#not-match? @name "^(any|bool|byte|comparable|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr)$"))

; ---------------------------------------------------------------------------------------------
; Imports

(import_spec
  path: [(interpreted_string_literal) (raw_string_literal)] @name) @import
