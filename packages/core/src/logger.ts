export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The engine's logging port; hosts plug in their own (pino, console…). */
export interface Logger {
  debug(message: string, details?: unknown): void;
  info(message: string, details?: unknown): void;
  warn(message: string, details?: unknown): void;
  error(message: string, details?: unknown): void;
}

const ORDER: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** A console logger that drops messages below `level`. */
export function consoleLogger(level: LogLevel = 'info'): Logger {
  const enabled = (wanted: LogLevel) => ORDER.indexOf(wanted) >= ORDER.indexOf(level);
  const write = (wanted: Exclude<LogLevel, 'silent'>) => (message: string, details?: unknown) => {
    if (!enabled(wanted)) return;
    const line = `${new Date().toISOString()} ${wanted.toUpperCase()} ${message}`;
    if (details === undefined) console[wanted](line);
    else console[wanted](line, details);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

export function isLogLevel(value: string): value is LogLevel {
  return (ORDER as string[]).includes(value);
}
