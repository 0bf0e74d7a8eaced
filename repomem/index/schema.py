"""The index store's schema version and derived tables (kept apart from `store` so checking
them needs no LanceDB)."""

from __future__ import annotations

# Bump when a table's columns or their meaning change; add a migration in `store.MIGRATIONS`
# from the previous version, or let the derived tables be rebuilt.
# 2: the `chunks` table; 3: a symbol's lines take in its decorators, attributes and doc comment;
# 4: documentation redacted like config (unquoted `PASSWORD=x`), symlinks to credential files
# skipped (indexes built before hold both as written: rebuilt once); 5: JavaScript functions
# assigned to an object's member (`res.send = function`) and the last of a chain; a definition
# the grammar closed early (TypeScript call signatures) reaches its closing brace; 6: a named
# JavaScript function passed to a call (`defineGetter(req, 'host', function host() {})`);
# 7: shell scripts redacted like config (`export DB_PASSWORD=x`), and a config value before an
# already redacted token on its line; 8: every name of a JavaScript assignment chain
# (`req.get = req.header = function`), and secrets given to commands (`--password=x`,
# `mysql -px`, `curl -u u:x`, `"PGPASSWORD=x psql"` in code) or stated in prose ("the
# password is x") redacted, with more token formats and code shapes (one rebuild); 9: more
# leak shapes redacted (`sshpass -p x`, env defaults `getenv("DB_PASSWORD") or "x"`, setters,
# `"host=db password=x"` strings, SQL `IDENTIFIED BY 'x'`, XML/YAML/Markdown variants, PEM
# variants) and `makefile.*` read like config (one rebuild); 10: credentials given to logins
# and connections (`login("u", "x")`, `connect(h, "u", "x")`, "log in with admin / x"), cookies,
# Digest and AWS4 headers, `?key=x`, any-case `identified by 'x'` and more Terraform defaults
# redacted (one rebuild); 11: Oracle logons (`sqlplus u/x@db`, `jdbc:oracle:thin:u/x@`),
# passwords given to known calls (`new Sequelize(db, u, "x")`, `cx_Oracle.connect(u, "x")`),
# `?p=x`, URL-encoded `password%3Dx`, presigned URLs' signatures and the strings inside
# Jupyter notebooks redacted (one rebuild); 12: Data Pump, export and RMAN logons (`expdp
# u/x@db`, `rman target u/x@db`), passwords given to `redis.Redis`, `ftplib.FTP` and `new PDO`,
# echoed into `docker login --password-stdin` or `sudo -S`, signing and encryption keys
# (`ENCRYPTION_KEY = "x"`), full-width and typographic quotes and names, and notebook cells
# without their notebook redacted (one rebuild); 13: `exp u/x@db` and logons without a
# database, full-width token/secret/auth names, zero-width characters inside a name, CJK
# names (`密码=x`), `net use`, `psexec -p`, lists and pairs (`passwords = ["x"]`,
# `("password", "x")`), docstrings and block comments, Makefiles' `::=`, here-strings and
# concatenated literals redacted; DKIM tokens and a token's `1*tchar` grammar kept (one
# rebuild); 14: Windows commands' passwords (`cmdkey /pass:x`, `schtasks /rp x`), `net  use`
# and other commands with more blanks, template strings over lines, literals concatenated in
# mixed quotes or adjacent (`"a" 'b'`), the soft hyphen and other invisible characters inside
# a name, and CJK names' quoted values outside ASCII redacted; `"prefix_" + name` kept (one
# rebuild); 15: literals joined over lines outside parentheses (`"a" +\n "b"`, a backslash's
# continuation), triple-quoted values over lines, CJK names' unquoted values outside ASCII,
# bidirectional controls and Cyrillic/Greek look-alikes inside a name, and a prefix added to
# what is no identity nor random value (`"hunter-" + year`) redacted; an algorithm's name after
# a CJK name (`密码：SHA256加密`) kept (one rebuild); 16: a lone `\r` (old Mac line ends) ends
# a line: the files stored with one, and those skipped as minified, are read again (a
# migration, no rebuild); 17: a build ending in a `sourceMappingURL` comment (`dist/axios.js`)
# is skipped as generated: the files stored with that comment are read again (a migration);
# 18: credential names in thirteen more languages (`contraseña`, `пароль`, `hasło`, ...),
# names written wholly in Cyrillic/Greek look-alikes (`ΤΟΚΕΝ = "..."`) and the small Greek
# ν, υ, η inside a name (`priνate_key`) redacted: the files whose stored text the filter now
# redacts are read again (a migration); 19: those names in code written all in ASCII
# (`senha = "..."`), eight more languages' (`salasana`, `jeton`, `özel_anahtar`, ...) and the
# Turkish dotted capital I (`ŞİFRE`), a password typed then words in prose (`password:
# Hq71mZpe4T for the bot`) and `set the password to ...`: the files and the commit messages
# whose stored text the filter now redacts are read again (a migration); 20: a bodyless
# callable's whole signature (overloads, prototypes, interface and abstract methods); C#
# member accesses and types in expressions, JavaScript/TypeScript re-exports, static members
# and the namespaces of qualified types as references: the files of parsed languages but
# Python are read again (a migration); 21: Kotlin, Swift, Scala, Lua and Bash parsed into
# symbols (they were text): their files are read again (a migration); 22: Swift operator
# functions (`Vector.+`), Kotlin secondary constructors named by their class (`Cart.Cart`) and
# annotation classes under `@Target(...)`, Lua table functions without `self` as functions:
# Kotlin, Swift and Lua files are read again (a migration)
SCHEMA_VERSION = 22

# Tables rebuilt from the working tree (`notes` and `memory` are kept across rebuilds).
DERIVED = ("files", "symbols", "chunks", "refs")
