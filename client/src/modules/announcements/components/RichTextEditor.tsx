import { useEffect } from 'react';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Button } from 'semantic-ui-react';
import { useTranslation } from 'react-i18next';
import { imageUrl, uploadImage } from '../../api';

interface Props {
  /** The initial HTML. */
  value: string;
  onChange: (html: string) => void;
  /** Uploads in flight (the form waits for them before publishing). */
  onUploading: (delta: number) => void;
  labelId: string;
}

/** Images in a paste or a drop. */
function imagesOf(data: DataTransfer | null): File[] {
  return data ? [...data.files].filter((f) => f.type.startsWith('image/')) : [];
}

/** Uploads each image through the upload service and inserts it where the caret (or the drop) is. */
async function insertImages(editor: Editor, files: File[], onUploading: (d: number) => void, at?: number) {
  for (const file of files) {
    onUploading(1);
    try {
      const path = await uploadImage('announcement', file, file.name || 'image.png');
      const chain = editor.chain().focus();
      (at === undefined ? chain : chain.setTextSelection(at)).setImage({ src: imageUrl(path), alt: '' }).run();
    } finally {
      onUploading(-1);
    }
  }
}

/**
 * The announcement editor (TipTap): headings, bold, italic, lists, links; images pasted (Ctrl+V)
 * or dropped are uploaded and inserted (SPEC §7). Loaded only on the add screen.
 */
export default function RichTextEditor({ value, onChange, onUploading, labelId }: Props) {
  const { t } = useTranslation();
  const editor = useEditor({
    extensions: [StarterKit, Image],
    content: value,
    editorProps: {
      attributes: { 'aria-labelledby': labelId, role: 'textbox', 'aria-multiline': 'true', 'data-testid': 'editor' },
      handlePaste: (_view, event) => {
        const files = imagesOf(event.clipboardData);
        if (files.length === 0 || !editor) return false;
        void insertImages(editor, files, onUploading);
        return true;
      },
      handleDrop: (view, event) => {
        const files = imagesOf(event.dataTransfer);
        if (files.length === 0 || !editor) return false;
        const pos = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        void insertImages(editor, files, onUploading, pos);
        return true;
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML()),
  });
  useEffect(() => () => editor?.destroy(), [editor]);
  const mark = (label: string, icon: string, run: (e: Editor) => void, active: string | [string, object]) => (
    <Button
      type="button"
      icon={icon}
      size="mini"
      basic
      aria-label={label}
      aria-pressed={editor ? (Array.isArray(active) ? editor.isActive(...active) : editor.isActive(active)) : false}
      onClick={() => editor && run(editor)}
    />
  );
  return (
    <div>
      <div role="toolbar" aria-label={t('announcements.editorLabel')} className="announcement-editor-toolbar">
        {mark(t('announcements.editor.bold'), 'bold', (e) => e.chain().focus().toggleBold().run(), 'bold')}
        {mark(t('announcements.editor.italic'), 'italic', (e) => e.chain().focus().toggleItalic().run(), 'italic')}
        {mark(
          t('announcements.editor.heading'),
          'heading',
          (e) => e.chain().focus().toggleHeading({ level: 3 }).run(),
          ['heading', { level: 3 }],
        )}
        {mark(
          t('announcements.editor.bulletList'),
          'list ul',
          (e) => e.chain().focus().toggleBulletList().run(),
          'bulletList',
        )}
        {mark(
          t('announcements.editor.orderedList'),
          'list ol',
          (e) => e.chain().focus().toggleOrderedList().run(),
          'orderedList',
        )}
      </div>
      <div className="announcement-editor">
        <EditorContent editor={editor} />
      </div>
      <small>{t('announcements.editorHint')}</small>
    </div>
  );
}
