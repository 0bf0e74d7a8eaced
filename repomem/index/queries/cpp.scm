; C++ tag query (repomem capture convention: see repomem/index/parser.py)
;
; Decisions (C conventions apply, see c.scm):
; - Prototypes and in-class member declarations are definitions (`function`, which becomes
;   `method` inside a class): class bodies mostly declare, and definitions live in .cpp files.
; - Out-of-class definitions `R Foo::bar() {}` capture the class as `@receiver`, so the qualified
;   name is `Foo.bar` (for `a::Foo::bar` / `Foo<T>::bar` the receiver is the last scope, `Foo`).
;   A namespace-qualified free function `void ns::f() {}` is indistinguishable and becomes the
;   method `ns.f`.
; - Constructors/destructors are methods named `Foo` / `~Foo`; operators are methods named
;   `operator==` etc.
; - Templates: the wrapped declaration is the symbol (docs are read before `template <...>`).
; - `namespace a::b {}` is one namespace named `a::b`. Anonymous namespaces are not symbols.
; - `using X = ...;` and `typedef` are `type`s; `typedef struct {..} X;` is the struct `X`.
; - Namespace-scope `const` / `constexpr` variables are `constant`s; enumerators are constants.
; - Predicates must sit inside a pattern's outer parentheses: `((pattern) (#eq? ...))`.

; ---------------------------------------------------------------------------------------------
; Functions and methods. The name sits under a function_declarator, optionally wrapped in one or
; two pointer declarators or a reference declarator.

; unqualified names: free functions, in-class methods, constructors, destructors, operators
(function_definition
  declarator: [
    (function_declarator
      declarator: [(identifier) (field_identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator
      declarator: (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)] @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator
          declarator: [(identifier) (field_identifier)] @name)))
    (reference_declarator
      (function_declarator
        declarator: [(identifier) (field_identifier) (operator_name)] @name))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator
      declarator: [(identifier) (destructor_name) (operator_name)] @name)
    (pointer_declarator
      declarator: (function_declarator declarator: [(identifier) (operator_name)] @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator declarator: (identifier) @name)))
    (reference_declarator
      (function_declarator declarator: [(identifier) (operator_name)] @name))
  ]) @definition.function

(field_declaration
  declarator: [
    (function_declarator
      declarator: [(field_identifier) (operator_name) (destructor_name)] @name)
    (pointer_declarator
      declarator: (function_declarator declarator: [(field_identifier) (operator_name)] @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator declarator: (field_identifier) @name)))
    (reference_declarator
      (function_declarator declarator: [(field_identifier) (operator_name)] @name))
  ]) @definition.function

; out-of-class definitions: `R Foo::bar()`, `Foo<T>::bar()`, `ns::Foo::bar()`, `a::b::Foo::bar()`
; (the receiver is the scope right before the name), returning a value, a pointer or a reference
(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        scope: [
          (namespace_identifier) @receiver
          (template_type name: (type_identifier) @receiver)
        ]
        name: [(identifier) (destructor_name) (operator_name)] @name))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier
          scope: [
            (namespace_identifier) @receiver
            (template_type name: (type_identifier) @receiver)
          ]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier
          scope: [
            (namespace_identifier) @receiver
            (template_type name: (type_identifier) @receiver)
          ]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
  ]) @definition.function

(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        name: (qualified_identifier
          scope: [
            (namespace_identifier) @receiver
            (template_type name: (type_identifier) @receiver)
          ]
          name: [(identifier) (destructor_name) (operator_name)] @name)))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier
          name: (qualified_identifier
            scope: [
              (namespace_identifier) @receiver
              (template_type name: (type_identifier) @receiver)
            ]
            name: [(identifier) (destructor_name) (operator_name)] @name))))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier
          name: (qualified_identifier
            scope: [
              (namespace_identifier) @receiver
              (template_type name: (type_identifier) @receiver)
            ]
            name: [(identifier) (destructor_name) (operator_name)] @name))))
  ]) @definition.function

(function_definition
  declarator: [
    (function_declarator
      declarator: (qualified_identifier
        name: (qualified_identifier
          name: (qualified_identifier
            scope: [
              (namespace_identifier) @receiver
              (template_type name: (type_identifier) @receiver)
            ]
            name: [(identifier) (destructor_name) (operator_name)] @name))))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (qualified_identifier
          name: (qualified_identifier
            name: (qualified_identifier
              scope: [
                (namespace_identifier) @receiver
                (template_type name: (type_identifier) @receiver)
              ]
              name: [(identifier) (destructor_name) (operator_name)] @name)))))
    (reference_declarator
      (function_declarator
        declarator: (qualified_identifier
          name: (qualified_identifier
            name: (qualified_identifier
              scope: [
                (namespace_identifier) @receiver
                (template_type name: (type_identifier) @receiver)
              ]
              name: [(identifier) (destructor_name) (operator_name)] @name)))))
  ]) @definition.function

; ---------------------------------------------------------------------------------------------
; Namespaces

(namespace_definition
  name: [(namespace_identifier) (nested_namespace_specifier)] @name) @definition.namespace

; ---------------------------------------------------------------------------------------------
; class / struct / union / enum definitions (with a body), outside typedefs.

; `struct point { ... };` at namespace scope, in a preprocessor block or in a function body (a
; struct followed by `;`, which a typedef'd struct is not)
(translation_unit
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(declaration_list
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(compound_statement
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_if
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_ifdef
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_else
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_elif
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

; error recovery regions drop the `;`
(ERROR
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ])

(template_declaration
  [
    (class_specifier name: (type_identifier) @name body: (_)) @definition.class
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
  ])

; specializations: `template <> class Foo<int> { ... };`, `template <> struct Foo<int> { ... };`
(class_specifier
  name: (template_type name: (type_identifier) @name) body: (_)) @definition.class

(struct_specifier
  name: (template_type name: (type_identifier) @name) body: (_)) @definition.struct

; `struct point { ... } origin;`, and members `struct Inner { ... };` / `struct Inner {...} in;`
(declaration
  type: (class_specifier name: (type_identifier) @name body: (_))) @definition.class

(declaration
  type: [
    (struct_specifier name: (type_identifier) @name body: (_))
    (union_specifier name: (type_identifier) @name body: (_))
  ]) @definition.struct

(declaration
  type: (enum_specifier name: (type_identifier) @name body: (_))) @definition.enum

(field_declaration
  type: (class_specifier name: (type_identifier) @name body: (_))) @definition.class

(field_declaration
  type: [
    (struct_specifier name: (type_identifier) @name body: (_))
    (union_specifier name: (type_identifier) @name body: (_))
  ]) @definition.struct

(field_declaration
  type: (enum_specifier name: (type_identifier) @name body: (_))) @definition.enum

; typedefs: `typedef struct [tag] { ... } name_t;` is the struct `name_t`
(type_definition
  type: [
    (struct_specifier body: (_))
    (union_specifier body: (_))
    (class_specifier body: (_))
  ]
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier body: (_))
  declarator: (type_identifier) @name) @definition.enum

(type_definition
  type: [
    (primitive_type)
    (sized_type_specifier)
    (type_identifier)
    (qualified_identifier)
    (template_type)
    (struct_specifier !body)
    (union_specifier !body)
    (class_specifier !body)
    (enum_specifier !body)
  ]
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (array_declarator declarator: (type_identifier) @name)
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator declarator: (type_identifier) @name)))
  ]) @definition.type

; `using Ptr = std::shared_ptr<Foo>;` (also inside `template <...>`)
(alias_declaration name: (type_identifier) @name) @definition.type

(enumerator name: (identifier) @name) @definition.constant

; ---------------------------------------------------------------------------------------------
; Macros and namespace-scope constants

(preproc_def name: (identifier) @name value: (_)) @definition.macro

(preproc_function_def name: (identifier) @name) @definition.macro

((translation_unit
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#any-of? @_const "const" "constexpr"))

((declaration_list
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#any-of? @_const "const" "constexpr"))

((preproc_ifdef
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#any-of? @_const "const" "constexpr"))

((preproc_if
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#any-of? @_const "const" "constexpr"))

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), obj.f(), ptr->f(), ns::f(), f<T>(), obj.f<T>()
(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
    (field_expression field: (template_method name: (field_identifier) @name))
    (qualified_identifier name: (identifier) @name)
    (qualified_identifier name: (qualified_identifier name: (identifier) @name))
    (template_function name: (identifier) @name)
    (qualified_identifier name: (template_function name: (identifier) @name))
  ]) @reference.call

; `new Foo(...)`, `new ns::Foo<T>(...)`
(new_expression
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.call

; base classes
(base_class_clause
  [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.class

; types used in declarations, parameters, fields, return types, template arguments and casts
(declaration
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.type

(parameter_declaration
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.type

(optional_parameter_declaration
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.type

(field_declaration
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.type

(function_definition
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.type

(type_descriptor
  type: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
    (qualified_identifier name: (template_type name: (type_identifier) @name))
    (qualified_identifier name: (qualified_identifier name: (type_identifier) @name))
    (qualified_identifier
      name: (qualified_identifier name: (template_type name: (type_identifier) @name)))
  ]) @reference.type

(type_definition type: (type_identifier) @name) @reference.type

; `struct point *p`, `class Foo;` (uses and forward declarations, without a body)
(struct_specifier name: (type_identifier) @name !body) @reference.type
(union_specifier name: (type_identifier) @name !body) @reference.type
(enum_specifier name: (type_identifier) @name !body) @reference.type
(class_specifier name: (type_identifier) @name !body) @reference.type

; ---------------------------------------------------------------------------------------------
; Imports: #include "path" / #include <path>

(preproc_include
  path: [
    (string_literal (string_content) @name)
    (system_lib_string) @name
  ]) @import
