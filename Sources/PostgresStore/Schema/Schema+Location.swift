import Logging
import PostgresNIO

extension Schema {
    /// Returns the schema of the store's tables and makes it the one `connection` searches.
    ///
    /// `configured`, when given, was already set when the connection started. Otherwise the connection started
    /// searching `pg_catalog` alone, and the schema is the one named after the user when the user owns it, else
    /// `public`: where PostgreSQL's default `search_path` (`"$user", public`) had the store create its tables, but
    /// neither a `search_path` that the database or the role sets nor a schema that another role created under the
    /// user's name can move it.
    static func locate(_ configured: String?, on connection: PostgresConnection, logger: Logger) async throws -> String
    {
        if let configured { return configured }
        let rows = try await connection.query(
            """
            SELECT CASE WHEN EXISTS (
                SELECT FROM pg_catalog.pg_namespace
                WHERE nspname = current_user AND nspowner = (SELECT oid FROM pg_catalog.pg_roles WHERE rolname = current_user)
            ) THEN current_user::text ELSE 'public' END
            """,
            logger: logger
        )
        var schema = "public"
        for try await name in rows.decode(String.self) { schema = name }
        try await connection.run(
            "SELECT pg_catalog.set_config('search_path', \(searchPath(schema)), false)",
            logger: logger
        )
        return schema
    }

    /// The `search_path` naming `schema` alone, quoted as an identifier.
    static func searchPath(_ schema: String) -> String {
        "\"" + schema.replacing("\"", with: "\"\"") + "\""
    }
}
