// JSON-RPC with the Language Server Protocol's `Content-Length` framing, over a pair of streams:
// how a TypeScript 7 language server talks (`tsc --lsp --stdio`) and how the API session it hands
// out on `custom/initializeAPISession` answers on its pipe. Enough of it to be the editor's client
// in tests and benches (ADR 197): requests with their answers, notifications, the server's own
// requests answered empty, and the editor's handshake with the language server (a folder, then an
// open file).

import { pathToFileURL } from 'node:url';

interface Message {
  id?: number;
  method?: string;
  result?: unknown;
  error?: { message: string };
}

/** JSON-RPC with LSP's `Content-Length` framing over a pair of streams: the language server's and its API session's wire format. */
export class Rpc {
  private buffer = Buffer.alloc(0);
  private next = 1;
  private readonly waiting = new Map<number, (m: Message) => void>();

  constructor(
    private readonly write: (b: Buffer) => void,
    read: NodeJS.ReadableStream,
  ) {
    read.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      for (;;) {
        const end = this.buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.buffer.subarray(0, end).toString('ascii'))?.[1]);
        if (this.buffer.length < end + 4 + length) return;
        const message = JSON.parse(this.buffer.subarray(end + 4, end + 4 + length).toString('utf8')) as Message;
        this.buffer = this.buffer.subarray(end + 4 + length);
        this.receive(message);
      }
    });
  }

  private receive(m: Message): void {
    if (m.id !== undefined && m.method === undefined) this.waiting.get(m.id)?.(m);
    // The server's own requests (client/registerCapability) are answered empty.
    else if (m.id !== undefined) this.send({ jsonrpc: '2.0', id: m.id, result: null });
  }

  private send(m: object): void {
    const body = Buffer.from(JSON.stringify(m), 'utf8');
    this.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  request(method: string, params?: unknown): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (m) => (m.error ? reject(new Error(m.error.message)) : resolve(m.result)));
      this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }
}

/** The handshake an editor opens a folder with: `initialize` on `root` (answered), then `initialized`. */
export async function initializeLanguageServer(lsp: Rpc, root: string, name: string): Promise<void> {
  const uri = pathToFileURL(root).href;
  await lsp.request('initialize', { processId: process.pid, rootUri: uri, capabilities: {}, workspaceFolders: [{ uri, name }] });
  lsp.notify('initialized', {});
}

/** The editor opens `file` holding `text` (its buffer, saved or not): `textDocument/didOpen`. Returns the file's uri. */
export function openInEditor(lsp: Rpc, file: string, text: string): string {
  const uri = pathToFileURL(file).href;
  lsp.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'typescript', version: 1, text } });
  return uri;
}
