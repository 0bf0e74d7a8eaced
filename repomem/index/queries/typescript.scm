; TypeScript / TSX tag query (repomem capture convention: see repomem/index/parser.py)
;
; Loaded after javascript.scm (which covers classes, functions, methods, constants, calls, `new`,
; decorators and imports) and compiled against the TypeScript or TSX grammar: only the shapes
; that exist in TypeScript alone are here.

; ---------------------------------------------------------------------------------------------
; Definitions

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(type_alias_declaration
  name: (type_identifier) @name) @definition.type

(enum_declaration
  name: (identifier) @name) @definition.enum

; enum members: enum Color { Red, Green = 2 }
(enum_body
  name: (property_identifier) @name @definition.constant)

(enum_body
  (enum_assignment
    name: (property_identifier) @name) @definition.constant)

; overload and ambient signatures: function f(a: string): string;  declare function g(): void;
(function_signature
  name: (identifier) @name) @definition.function

; interface and abstract methods
(method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

; class fields holding functions or classes: private handler = (e: Event) => {}
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression) (generator_function)]) @definition.function

(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: (class)) @definition.class

; module Foo {}, declare module "foo" {}
(module
  name: [
    (identifier) @name
    (nested_identifier) @name
    (string (string_fragment) @name)
  ]) @definition.module

; namespace Foo {}: a bare namespace is wrapped in an expression_statement, which is captured so
; the leading doc comment is found; exported and ambient ones are under a wrapper node already.
(expression_statement
  (internal_module
    name: [(identifier) (nested_identifier)] @name)) @definition.namespace

(export_statement
  declaration: (internal_module
    name: [(identifier) (nested_identifier)] @name) @definition.namespace)

(ambient_declaration
  (internal_module
    name: [(identifier) (nested_identifier)] @name) @definition.namespace)

; top-level constants whose value is wrapped in a TS-only expression: const X = {...} as const
(program
  (lexical_declaration
    kind: "const"
    (variable_declarator
      name: (identifier) @name
      value: [(as_expression) (satisfies_expression) (non_null_expression)]))
  @definition.constant)

(program
  (export_statement
    declaration: (lexical_declaration
      kind: "const"
      (variable_declarator
        name: (identifier) @name
        value: [(as_expression) (satisfies_expression) (non_null_expression)]))
    @definition.constant))

; ---------------------------------------------------------------------------------------------
; References

; `await f<T>(x)` parses as a call of the await expression in the TS grammars
(call_expression
  function: (await_expression
    [
      (identifier) @name
      (member_expression property: [(property_identifier) (private_property_identifier)] @name)
    ])) @reference.call

; superclass: class A extends B / extends ns.B
(extends_clause
  value: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.class

; implemented interfaces: class A implements I, ns.J, K<T>
(implements_clause
  [
    (type_identifier) @name
    (nested_type_identifier name: (type_identifier) @name)
    (generic_type
      name: [
        (type_identifier) @name
        (nested_type_identifier name: (type_identifier) @name)
      ])
  ]) @reference.implementation

; type uses: a bare, qualified (ns.T) or generic (T<U>) type name in a type position. Type
; positions are listed by parent so that declared names (class, interface, alias and type
; parameter names) are not taken for uses.
[
  (type_annotation
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (opting_type_annotation
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (omitting_type_annotation
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (adding_type_annotation
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (type_arguments
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (union_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (intersection_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (array_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (tuple_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (optional_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (rest_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (readonly_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (parenthesized_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (lookup_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (index_type_query
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (conditional_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (constraint
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (default_type
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (as_expression
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (satisfies_expression
    [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (extends_type_clause
    type: [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (type_alias_declaration
    value: [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (type_predicate
    type: [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (function_type
    return_type: [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
  (mapped_type_clause
    type: [
      (type_identifier) @name
      (nested_type_identifier name: (type_identifier) @name)
      (generic_type
        name: [
          (type_identifier) @name
          (nested_type_identifier name: (type_identifier) @name)
        ])
    ])
] @reference.type

; the namespaces a qualified type is read from: JSX in JSX.Element, Outer and Inner in
; Outer.Inner.Leaf (the type itself is a use above)
(nested_type_identifier
  module: (identifier) @name) @reference.type

(nested_type_identifier
  module: (nested_identifier
    object: (identifier) @name)) @reference.type

(nested_type_identifier
  module: (nested_identifier
    property: (property_identifier) @name)) @reference.type

; ---------------------------------------------------------------------------------------------
; Imports

; import fs = require("fs")
(import_require_clause
  source: (string (string_fragment) @name)) @import
