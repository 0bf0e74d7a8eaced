; C tag query (repomem capture convention: see repomem/index/parser.py)
;
; Decisions:
; - Function prototypes (`int f(void);`) are definitions of kind `function`, like function
;   bodies: a header's prototypes are its API. A `.c` file with a forward declaration and a
;   definition therefore yields two `function` symbols with the same name.
; - `typedef struct tag { ... } name_t;` yields one `struct` symbol named `name_t` (the name the
;   code uses; the tag is not a separate symbol, which would nest inside the typedef).
;   `typedef` of anything else is a `type`.
; - Unions are `struct`s. Enumerators are `constant`s (nested in their enum).
; - `#define` with a value and function-like macros are `macro`s; valueless defines (include
;   guards, feature flags) are not symbols.
; - File-scope `const` variables are `constant`s.
; - Predicates must sit inside a pattern's outer parentheses: `((pattern) (#eq? ...))`.

; ---------------------------------------------------------------------------------------------
; Functions: definitions and prototypes. The name sits under up to two pointer declarators.

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator
        declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

; ---------------------------------------------------------------------------------------------
; struct / union / enum definitions (with a body), outside typedefs.

; `struct point { ... };` at file scope, in a preprocessor block or in a function body (a
; struct followed by `;`, which a typedef'd struct is not)
(translation_unit
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_if
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_ifdef
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_else
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(preproc_elif
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(declaration_list
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

(compound_statement
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ]
  .
  ";")

; error recovery regions drop the `;`
(ERROR
  [
    (struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (union_specifier name: (type_identifier) @name body: (_)) @definition.struct
    (enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
  ])

; `struct point { ... } origin;`, nested `struct inner { ... } in;` and `struct inner { ... };`
(declaration
  type: [
    (struct_specifier name: (type_identifier) @name body: (_))
    (union_specifier name: (type_identifier) @name body: (_))
  ]) @definition.struct

(declaration
  type: (enum_specifier name: (type_identifier) @name body: (_))) @definition.enum

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
  ]
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier body: (_))
  declarator: (type_identifier) @name) @definition.enum

; other typedefs: plain, pointer, array and function-pointer types
(type_definition
  type: [
    (primitive_type)
    (sized_type_specifier)
    (type_identifier)
    (struct_specifier !body)
    (union_specifier !body)
    (enum_specifier !body)
    (macro_type_specifier)
  ]
  declarator: [
    (type_identifier) @name
    (pointer_declarator declarator: (type_identifier) @name)
    (array_declarator declarator: (type_identifier) @name)
    (function_declarator
      declarator: (parenthesized_declarator
        (pointer_declarator declarator: (type_identifier) @name)))
    (pointer_declarator
      declarator: (function_declarator
        declarator: (parenthesized_declarator
          (pointer_declarator declarator: (type_identifier) @name))))
  ]) @definition.type

(enumerator name: (identifier) @name) @definition.constant

; ---------------------------------------------------------------------------------------------
; Macros and file-scope constants

(preproc_def name: (identifier) @name value: (_)) @definition.macro

(preproc_function_def name: (identifier) @name) @definition.macro

((translation_unit
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#eq? @_const "const"))

((preproc_if
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#eq? @_const "const"))

((preproc_ifdef
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#eq? @_const "const"))

((preproc_else
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#eq? @_const "const"))

((preproc_elif
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#eq? @_const "const"))

((declaration_list
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator declarator: (identifier) @name)) @definition.constant)
  (#eq? @_const "const"))

; ---------------------------------------------------------------------------------------------
; References

; calls: f(), obj.f(), ptr->f(), MACRO(x)
(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
  ]) @reference.call

; types used in declarations, parameters, fields, return types, casts and sizeof
(declaration type: (type_identifier) @name) @reference.type
(parameter_declaration type: (type_identifier) @name) @reference.type
(field_declaration type: (type_identifier) @name) @reference.type
(function_definition type: (type_identifier) @name) @reference.type
(type_descriptor type: (type_identifier) @name) @reference.type
(type_definition type: (type_identifier) @name) @reference.type

; `struct point *p`, `union u x`, `enum color c` (uses without a body)
(struct_specifier name: (type_identifier) @name !body) @reference.type
(union_specifier name: (type_identifier) @name !body) @reference.type
(enum_specifier name: (type_identifier) @name !body) @reference.type

; ---------------------------------------------------------------------------------------------
; Imports: #include "path" / #include <path>

(preproc_include
  path: [
    (string_literal (string_content) @name)
    (system_lib_string) @name
  ]) @import
