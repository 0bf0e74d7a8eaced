; PHP tag query (repomem capture convention: see repomem/index/parser.py)
;
; Decisions:
; - Namespaces are `namespace` symbols, braced or not; the parser extends a statement namespace
;   (`namespace App\Models;`) to the next one or the end of the file, so the classes after it are
;   qualified `App\Models.Widget`. The namespace name is kept whole.
; - Traits are `trait`s, enums `enum`s, enum cases and class/global constants `constant`s,
;   properties `property`s (declared ones; promoted constructor parameters are not symbols).
; - Methods are `method`s; `__construct` is a `method` too (as Python's `__init__`).
; - `new Foo` is a call reference to `Foo`; `Foo::bar()` is a call to `bar` and a class reference
;   to `Foo`. extends / implements / trait `use` are class references; type hints are type
;   references. Attributes are `decorator` references.
; - Predicates must sit inside a pattern's outer parentheses: `((pattern) (#eq? ...))`;
;   py-tree-sitter ignores `#not-any-of?`, so exclusions use `#not-match?`.
; - Imports: each `use A\B\C;` clause is an import of `A\B\C`; a group `use A\{B, C};` imports
;   `A` with `B` and `C` as `imported` references (like Python's `from a import b, c`).
;   require/include with a literal path import that path (for `__DIR__ . '/x.php'`, `/x.php`).

; ---------------------------------------------------------------------------------------------
; Namespaces

(namespace_definition
  name: (namespace_name) @name
  body: (_)) @definition.namespace

(namespace_definition
  name: (namespace_name) @name
  !body) @definition.namespace.open

; ---------------------------------------------------------------------------------------------
; Types

(class_declaration name: (name) @name) @definition.class

(interface_declaration name: (name) @name) @definition.interface

(trait_declaration name: (name) @name) @definition.trait

(enum_declaration name: (name) @name) @definition.enum

; ---------------------------------------------------------------------------------------------
; Functions, methods, constants, properties

(function_definition name: (name) @name) @definition.function

(method_declaration name: (name) @name) @definition.method

(const_declaration (const_element (name) @name)) @definition.constant

(enum_case name: (name) @name) @definition.constant

(property_declaration
  (property_element name: (variable_name (name) @name))) @definition.property

; ---------------------------------------------------------------------------------------------
; References

; calls: foo(), \Ns\foo(), $obj->foo(), $obj?->foo(), Foo::foo(), parent::foo()
(function_call_expression
  function: [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.call

(member_call_expression name: (name) @name) @reference.call

(nullsafe_member_call_expression name: (name) @name) @reference.call

(scoped_call_expression name: (name) @name) @reference.call

(scoped_call_expression
  scope: [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.class

(class_constant_access_expression
  .
  [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.class

; new Foo(), new \App\Foo() (not `new static` / `new self`)
((object_creation_expression
  [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.call
  (#not-match? @name "^(static|self|parent)$"))

; extends / implements / use Trait;
(base_clause
  [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.class

(class_interface_clause
  [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.class

(use_declaration
  [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.class

; type hints on parameters, properties and return values
((named_type
  [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.type
  (#not-match? @name "^(static|self|parent)$"))

; attributes: #[Route("/x")]
(attribute
  [
    (name) @name
    (qualified_name (name) @name)
  ]) @reference.decorator

; ---------------------------------------------------------------------------------------------
; Imports

; use App\Models\User; use function App\helper; use App\Models\User as U;
(namespace_use_declaration
  (namespace_use_clause . [(qualified_name) (name)] @name)) @import

; group use: use App\Models\{User, Post};
(namespace_use_declaration
  (namespace_name) @name
  body: (namespace_use_group)) @import

(namespace_use_group
  (namespace_use_clause . [(name) (qualified_name)] @name)) @reference.imported

; require 'x.php'; include_once __DIR__ . '/x.php';
(require_expression
  [
    (string (string_content) @name)
    (encapsed_string (string_content) @name)
    (binary_expression right: [
      (string (string_content) @name)
      (encapsed_string (string_content) @name)
    ])
  ]) @import

(require_once_expression
  [
    (string (string_content) @name)
    (encapsed_string (string_content) @name)
    (binary_expression right: [
      (string (string_content) @name)
      (encapsed_string (string_content) @name)
    ])
  ]) @import

(include_expression
  [
    (string (string_content) @name)
    (encapsed_string (string_content) @name)
    (binary_expression right: [
      (string (string_content) @name)
      (encapsed_string (string_content) @name)
    ])
  ]) @import

(include_once_expression
  [
    (string (string_content) @name)
    (encapsed_string (string_content) @name)
    (binary_expression right: [
      (string (string_content) @name)
      (encapsed_string (string_content) @name)
    ])
  ]) @import
