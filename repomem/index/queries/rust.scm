; Rust tag query (repomem capture convention: see repomem/index/parser.py)

; ---------------------------------------------------------------------------------------------
; Definitions

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name) @definition.trait

(type_item
  name: (type_identifier) @name) @definition.type

; associated types in traits: type Output;
(associated_type
  name: (type_identifier) @name) @definition.type

(mod_item
  name: (identifier) @name) @definition.module

(macro_definition
  name: (identifier) @name) @definition.macro

; functions; inside a trait or impl they become methods
(function_item
  name: (identifier) @name) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

; module-level and associated constants and statics (not the ones local to a function body)
(source_file
  [
    (const_item name: (identifier) @name)
    (static_item name: (identifier) @name)
  ] @definition.constant)

(declaration_list
  [
    (const_item name: (identifier) @name)
    (static_item name: (identifier) @name)
  ] @definition.constant)

; impl blocks name the scope of their methods: impl Type, impl<T> Type<T>, impl Trait for Type,
; impl Trait for &Type, impl Trait for path::Type
(impl_item
  type: [
    (type_identifier) @name
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type
      type: [
        (type_identifier) @name
        (scoped_type_identifier name: (type_identifier) @name)
      ])
    (reference_type
      type: [
        (type_identifier) @name
        (scoped_type_identifier name: (type_identifier) @name)
        (generic_type
          type: [
            (type_identifier) @name
            (scoped_type_identifier name: (type_identifier) @name)
          ])
      ])
  ]) @scope

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), path::f(), obj.method(), f::<T>(), obj.method::<T>()
(call_expression
  function: [
    (identifier) @name
    (scoped_identifier name: (identifier) @name)
    (field_expression field: (field_identifier) @name)
    (generic_function
      function: [
        (identifier) @name
        (scoped_identifier name: (identifier) @name)
        (field_expression field: (field_identifier) @name)
      ])
  ]) @reference.call

; the type in an associated call: Point::new(), Vec::<T>::new()
((call_expression
  function: [
    (scoped_identifier path: (identifier) @name)
    (scoped_identifier path: (scoped_identifier name: (identifier) @name))
    (scoped_identifier path: (generic_type type: (type_identifier) @name))
    (generic_function function: (scoped_identifier path: (identifier) @name))
  ]) @reference.type
  (#match? @name "^[A-Z]"))

; macro invocations: println!(), std::format!()
(macro_invocation
  macro: [
    (identifier) @name
    (scoped_identifier name: (identifier) @name)
  ]) @reference.macro

; implemented traits: impl Trait for Type
(impl_item
  trait: [
    (type_identifier) @name
    (scoped_type_identifier name: (type_identifier) @name)
    (generic_type
      type: [
        (type_identifier) @name
        (scoped_type_identifier name: (type_identifier) @name)
      ])
  ]) @reference.implementation

; type uses: a bare, qualified (path::T, last segment) or generic (T<U>, head) type name in a type
; position. Positions are listed by parent so that declared names (type parameters, impl
; targets) and implemented traits (above) are not taken for plain type uses.
([
  (type_arguments
    [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (reference_type
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (pointer_type
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (array_type
    element: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (tuple_type
    [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (parameter
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (function_item
    return_type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (function_signature_item
    return_type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (function_type
    return_type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (closure_expression
    return_type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (field_declaration
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (ordered_field_declaration_list
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (let_declaration
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (const_item
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (static_item
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (type_item
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (trait_bounds
    [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (where_predicate
    left: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (abstract_type
    trait: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (dynamic_type
    trait: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (bounded_type
    [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (type_binding
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (type_cast_expression
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (qualified_type
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (qualified_type
    alias: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (removed_trait_bound
    [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
      (generic_type
        type: [
          (type_identifier) @name
          (scoped_type_identifier name: (type_identifier) @name)
        ])
    ])
  (struct_expression
    name: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
    ])
  (struct_pattern
    type: [
      (type_identifier) @name
      (scoped_type_identifier name: (type_identifier) @name)
    ])
] @reference.type
  (#not-eq? @name "Self"))

; ---------------------------------------------------------------------------------------------
; Imports

; use a::b::C; use a::b::C as D; use a::b::*; pub use self::m::f;
(use_declaration
  argument: [
    (identifier) @name
    (scoped_identifier) @name
    (use_as_clause path: (_) @name)
    (use_wildcard (_) @name)
  ]) @import

; use a::b::{c, d as e}: the module path is imported; the listed names are imported bindings
(use_declaration
  argument: (scoped_use_list
    path: (_) @name)) @import

(use_declaration
  argument: (scoped_use_list
    list: (use_list
      [
        (identifier) @name
        (use_as_clause path: (identifier) @name)
      ]))) @reference.imported

(extern_crate_declaration
  name: (identifier) @name) @import
