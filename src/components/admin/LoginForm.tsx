export interface LoginFormProps {
  /** Message of the last attempt (wrong credentials, not staff, too many attempts). */
  error?: string;
  /** E-mail typed in the last attempt, so it need not be typed again. */
  email?: string;
  /** Why the staff member is here again (a session ended for inactivity). */
  notice?: string;
  companyName: string;
  /** `code`: the password was right; the second step asks for a code of the app or a recovery code. */
  step?: 'password' | 'code';
  /** Where the code form posts (the page with `?paso=codigo`). */
  codeAction?: string;
}

/** 'Login Administrador': a plain HTML form posted to the page itself (no JavaScript needed). */
export default function LoginForm({
  error,
  email,
  notice,
  companyName,
  step = 'password',
  codeAction,
}: LoginFormProps) {
  return (
    <div className="w-full max-w-md rounded-card bg-white p-8 shadow-xl shadow-brand-950/20 ring-1 ring-line sm:p-10">
      <div className="mb-8 flex items-center gap-3">
        <span
          aria-hidden="true"
          className="grid size-11 place-items-center rounded-button bg-brand-900 text-lg font-bold text-white"
        >
          V
        </span>
        <div>
          <p className="text-sm font-medium text-muted">{companyName}</p>
          <h1 className="text-2xl font-bold tracking-tight text-brand-900">Login Administrador</h1>
        </div>
      </div>
      {notice && !error ? (
        <p
          role="status"
          className="mb-6 rounded-button border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          {notice}
        </p>
      ) : null}
      {error ? (
        <p
          role="alert"
          className="mb-6 rounded-button border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800"
        >
          {error}
        </p>
      ) : null}
      {step === 'code' ? (
        <form method="post" action={codeAction} className="flex flex-col gap-5">
          <h2 className="text-lg font-semibold text-brand-900">Verificación en dos pasos</h2>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="codigo" className="text-sm font-medium text-ink">
              Código de verificación
            </label>
            <p id="codigo-ayuda" className="text-sm text-muted">
              Escribe el código de 6 cifras que muestra tu aplicación de autenticación, o uno de tus códigos
              de recuperación.
            </p>
            <input
              id="codigo"
              name="codigo"
              type="text"
              required
              autoComplete="one-time-code"
              maxLength={64}
              spellCheck={false}
              aria-describedby="codigo-ayuda"
              aria-invalid={error ? true : undefined}
              className="rounded-button border border-line bg-white px-3.5 py-2.5 font-mono text-ink shadow-sm focus:border-brand-500"
            />
          </div>
          <button
            type="submit"
            className="mt-2 rounded-button bg-brand-900 px-4 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-brand-800 focus-visible:outline-offset-4"
          >
            Verificar
          </button>
          <p className="text-center text-sm">
            <a href="/admin-login" className="font-medium text-brand-700 hover:underline">
              Empezar de nuevo
            </a>
          </p>
        </form>
      ) : (
        <form method="post" className="flex flex-col gap-5">
          <div className="flex flex-col gap-1.5">
            <label htmlFor="email" className="text-sm font-medium text-ink">
              Correo electrónico
            </label>
            <input
              id="email"
              name="email"
              type="email"
              required
              autoComplete="username"
              defaultValue={email}
              className="rounded-button border border-line bg-white px-3.5 py-2.5 text-ink shadow-sm focus:border-brand-500"
            />
          </div>
          <div className="flex flex-col gap-1.5">
            <label htmlFor="password" className="text-sm font-medium text-ink">
              Contraseña
            </label>
            <input
              id="password"
              name="password"
              type="password"
              required
              autoComplete="current-password"
              className="rounded-button border border-line bg-white px-3.5 py-2.5 text-ink shadow-sm focus:border-brand-500"
            />
          </div>
          <button
            type="submit"
            className="mt-2 rounded-button bg-brand-900 px-4 py-3 font-semibold text-white shadow-sm transition-colors hover:bg-brand-800 focus-visible:outline-offset-4"
          >
            Iniciar sesión
          </button>
        </form>
      )}
      <p className="mt-8 text-center text-sm text-muted">
        <a href="/" className="font-medium text-brand-700 hover:underline">
          ← Volver al sitio
        </a>
      </p>
    </div>
  );
}
