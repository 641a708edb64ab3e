// A drawn signature, with JavaScript only (the typed name is the signature
// without it). Mouse, touch or pen draw on the canvas; from the keyboard,
// "Use my typed name" writes the typed name onto it in a handwriting face, and
// "Clear" empties it. The drawing goes to the form as a PNG data URL in the
// hidden field `signature`.
import { useRef, useState } from 'react';
import { Button } from '~/components/ui/button';
import { PUBLIC_QUOTE_TEXTS as T } from './texts';

const WIDTH = 480;
const HEIGHT = 140;

export function SignaturePad({ nameInputId, errorId, errors }: { nameInputId: string; errorId: string; errors?: string[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [value, setValue] = useState('');

  const context = () => {
    const ctx = canvas.current?.getContext('2d');
    if (ctx) {
      ctx.lineWidth = 2.5;
      ctx.lineCap = 'round';
      ctx.lineJoin = 'round';
      ctx.strokeStyle = '#111827';
      ctx.fillStyle = '#111827';
    }
    return ctx ?? null;
  };
  const save = () => setValue(canvas.current?.toDataURL('image/png') ?? '');
  const clear = () => {
    context()?.clearRect(0, 0, WIDTH, HEIGHT);
    setValue('');
  };
  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return { x: ((event.clientX - box.left) * WIDTH) / box.width, y: ((event.clientY - box.top) * HEIGHT) / box.height };
  };


  return (
    <div className="grid gap-2">
      <p id="signature-label" className="text-sm font-medium">
        {T.drawLabel}
      </p>
      <canvas
        ref={canvas}
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-labelledby="signature-label"
        aria-describedby={`signature-hint ${errorId}`}
        data-testid="signature-canvas"
        className="h-auto w-full max-w-[480px] touch-none rounded-md border border-border bg-background"
        onPointerDown={(event) => {
          const ctx = context();
          if (!ctx) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          drawing.current = true;
          const { x, y } = point(event);
          ctx.beginPath();
          ctx.moveTo(x, y);
        }}
        onPointerMove={(event) => {
          if (!drawing.current) return;
          const ctx = context();
          const { x, y } = point(event);
          ctx?.lineTo(x, y);
          ctx?.stroke();
        }}
        onPointerUp={() => {
          if (!drawing.current) return;
          drawing.current = false;
          save();
        }}
      />
      <p id="signature-hint" className="text-xs text-muted-foreground">
        {T.drawHint}
      </p>
      <div className="flex gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => {
            const name = (document.getElementById(nameInputId) as HTMLInputElement | null)?.value.trim() ?? '';
            const ctx = context();
            if (!ctx || !name) return;
            ctx.clearRect(0, 0, WIDTH, HEIGHT);
            ctx.font = 'italic 40px "Brush Script MT", "Segoe Script", cursive';
            ctx.textBaseline = 'middle';
            ctx.fillText(name, 16, HEIGHT / 2, WIDTH - 32);
            save();
          }}
        >
          {T.drawFromName}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={clear}>
          {T.drawClear}
        </Button>
      </div>
      <input type="hidden" name="signature" value={value} />
      <div id={errorId} className="text-sm text-destructive" aria-live="polite">
        {errors?.map((error) => (
          <p key={error}>{error}</p>
        ))}
      </div>
    </div>
  );
}
